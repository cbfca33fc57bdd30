//! `functions_timing` as a typed table: calls and calls/s, average, the configured
//! percentiles, total with its share of the run, and self time.

use hotpath_model::{percentile_label, FunctionsTiming, Unit};
use serde_json::Value;

use super::fields::row_keys;
use super::history::History;
use super::table::{Cell, Column, Kind, Table, TableRow};

/// The section's key in the report.
pub(crate) const SECTION: &str = "functions_timing";

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
    let keys = row_keys(raw_rows);
    let rows = timing
        .rows
        .iter()
        .zip(raw_rows)
        .zip(keys)
        .map(|((row, raw), key)| {
            let key = key.unwrap_or_else(|| row.name.clone());
            let rate = history.rate(SECTION, &key, "calls");
            let mut cells = vec![Cell::Text(row.name.clone()), Cell::Number(row.calls as f64)];
            cells.push(rate.map_or(Cell::Empty, Cell::Number));
            cells.push(Cell::Number(row.avg_ns as f64));
            cells.extend(
                percentiles.iter().map(|p| row.percentiles_ns.get(*p).map_or(Cell::Empty, |v| Cell::Number(v as f64))),
            );
            let share = if wall > 0.0 { Cell::Number(row.total_ns as f64 * 100.0 / wall) } else { Cell::Empty };
            cells.extend([Cell::Number(row.total_ns as f64), share, Cell::Number(row.self_ns as f64)]);
            TableRow { key, name: row.name.clone(), cells, raw: raw.clone() }
        })
        .collect();
    Some(Table { columns, rows, counter: Some("calls".into()), counter_kind: Kind::Unit(Unit::PerSecond) })
}
