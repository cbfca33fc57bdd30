//! `functions_timing` as a typed table: calls and calls/s, average, the configured
//! percentiles, total with its share of the run, and self time; while calls are in
//! flight, how many and the age of the oldest (last, so no column moves when they
//! come and go).

use hotpath_model::{percentile_label, FunctionsTiming, Section, Unit};
use serde_json::Value;

use super::fields::row_keys;
use super::history::History;
use super::table::{Cell, Column, Kind, Table, TableRow};
use super::typed::units_of;

pub(crate) fn table(section: &Value, meta: &Value, history: &History) -> Option<Table> {
    let timing: FunctionsTiming = serde_json::from_value(section.clone()).ok()?;
    let raw_rows = section["rows"].as_array()?;
    let percentiles: Vec<f64> =
        meta["percentiles"].as_array().map(|p| p.iter().filter_map(Value::as_f64).collect()).unwrap_or_default();
    let wall = meta["wall_ns"].as_f64().unwrap_or(0.0);
    let column = |key: &str, title: &str, kind| Column { key: key.into(), title: title.into(), kind };
    let ns = Kind::Unit(Unit::Nanoseconds);
    let mut columns = vec![column("name", "Function", Kind::Text), column("calls", "Calls", Kind::Unit(Unit::Count))];
    columns.push(column("calls/s", "Calls/s", Kind::Unit(Unit::PerSecond)));
    columns.push(column("avg_ns", "Avg", ns));
    for p in &percentiles {
        let label = percentile_label(*p);
        columns.push(column(&format!("percentiles_ns.{label}"), &label.to_uppercase(), ns));
    }
    columns.extend([
        column("total_ns", "Total", ns),
        column("total%", "% Total", Kind::Unit(Unit::Percent)),
        column("self_ns", "Self", ns),
    ]);
    let running = timing.rows.iter().any(|r| r.active > 0);
    if running {
        columns.push(column("active", "Active", Kind::Unit(Unit::Count)));
        columns.push(column("oldest_active_ns", "Oldest", ns));
    }
    let keys = row_keys(raw_rows);
    let rows = timing
        .rows
        .iter()
        .zip(raw_rows)
        .zip(keys)
        .map(|((row, raw), key)| {
            let key = key.unwrap_or_else(|| row.name.clone());
            let rate = history.rate(Section::FunctionsTiming.key(), &key, "calls");
            let mut cells = vec![Cell::Text(row.name.clone()), Cell::Number(row.calls as f64)];
            cells.push(rate.map_or(Cell::Empty, Cell::Number));
            // Calls in flight only: no durations yet.
            let duration = |ns: Option<u64>| match (row.calls, ns) {
                (0, _) | (_, None) => Cell::Empty,
                (_, Some(ns)) => Cell::Number(ns as f64),
            };
            cells.push(duration(Some(row.avg_ns)));
            cells.extend(percentiles.iter().map(|p| duration(row.percentiles_ns.get(*p))));
            let share = if wall > 0.0 { Cell::Number(row.total_ns as f64 * 100.0 / wall) } else { Cell::Empty };
            let total = duration(Some(row.total_ns));
            let share = if row.calls == 0 { Cell::Empty } else { share };
            cells.extend([total, share, Cell::Number(row.self_ns as f64)]);
            if running {
                let oldest = row.oldest_active_ns.filter(|_| row.active > 0);
                cells.push(if row.active > 0 { Cell::Number(row.active as f64) } else { Cell::Empty });
                cells.push(oldest.map_or(Cell::Empty, |ns| Cell::Number(ns as f64)));
            }
            TableRow { key, name: row.name.clone(), cells, raw: raw.clone(), units: Some(units_of(row)) }
        })
        .collect();
    Some(Table { columns, rows, counter: Some("calls".into()), counter_kind: Kind::Unit(Unit::PerSecond) })
}

/// The printed table's note on rows whose mean is above their highest percentile (a few
/// slow calls dominate it), for the summary line.
pub(crate) fn outlier_note(section: &Value, meta: &Value) -> Option<String> {
    let timing: FunctionsTiming = serde_json::from_value(section.clone()).ok()?;
    let percentiles: Vec<f64> = meta["percentiles"].as_array()?.iter().filter_map(Value::as_f64).collect();
    let depth = meta["name_depth"].as_u64().map_or(0, |d| d as usize);
    timing.outlier_note(&percentiles, depth)
}
