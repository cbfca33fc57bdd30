//! The `tokio_runtime` section's runtimes as a typed table: what each runtime is
//! doing (workers busy, tasks, queue, flags), then how long it was watched and how
//! many samples that took. No rate of the sample count: it only restates the
//! sampling interval, and two clocks (sampler and console polls) beating against
//! each other made it read 2.0/s beside a one-second interval.

use hotpath_model::{Section, TokioRuntime, TokioRuntimes, Unit};
use serde_json::Value;

use super::fields::row_keys;
use super::history::History;
use super::table::{Cell, Column, Kind, Table, TableRow};
use super::typed::units_of;

/// The table, or `None` when the JSON is not a `TokioRuntimes` section.
pub(crate) fn table(section: &Value, history: &History) -> Option<Table> {
    let runtimes: TokioRuntimes = serde_json::from_value(section.clone()).ok()?;
    let raw_rows = section["runtimes"].as_array()?;
    let column = |key: &str, title: &str, kind| Column { key: key.into(), title: title.into(), kind };
    let count = Kind::Unit(Unit::Count);
    let spawned = runtimes.runtimes.iter().any(|r| r.spawned_tasks.is_some());
    let mut columns = vec![
        column("name", "Runtime", Kind::Text),
        column("flavor", "Flavor", Kind::Text),
        column("num_workers", "Workers", count),
        column("busy_percent", "Busy (now)", Kind::Unit(Unit::Percent)),
        column("alive_tasks", "Tasks", count),
        column("global_queue_depth", "Global queue", count),
    ];
    if spawned {
        columns.push(column("spawned_tasks/s", "Spawned/s", Kind::Unit(Unit::PerSecond)));
    }
    columns.extend([
        column("flags", "Flags", count),
        column("monitored_ns", "Monitored", Kind::Unit(Unit::Nanoseconds)),
        column("samples", "Samples", count),
    ]);
    let rows = runtimes
        .runtimes
        .iter()
        .zip(raw_rows)
        .zip(row_keys(raw_rows))
        .map(|((rt, raw), key)| {
            let key = key.unwrap_or_else(|| rt.name.clone());
            let number = |v: f64| Cell::Number(v);
            let mut cells = vec![
                Cell::Text(rt.name.clone()),
                Cell::Text(rt.flavor.clone()),
                number(rt.num_workers as f64),
                busy_now(rt).map_or(Cell::Empty, number),
                number(rt.alive_tasks as f64),
                number(rt.global_queue_depth as f64),
            ];
            if spawned {
                cells
                    .push(history.rate(Section::TokioRuntime.key(), &key, "spawned_tasks").map_or(Cell::Empty, number));
            }
            cells.extend([number(rt.flags.len() as f64), number(rt.monitored_ns as f64), number(rt.samples as f64)]);
            TableRow { key, name: rt.name.clone(), cells, raw: raw.clone(), units: Some(units_of(rt)) }
        })
        .collect();
    let counter = spawned.then(|| "spawned_tasks".to_string());
    Some(Table { columns, rows, counter, counter_kind: Kind::Unit(Unit::PerSecond) })
}

/// The workers' mean busy share at the newest point of the runtime's history.
fn busy_now(rt: &TokioRuntime) -> Option<f64> {
    rt.history.last().map(|p| p.busy_percent)
}
