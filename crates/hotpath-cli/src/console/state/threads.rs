//! The `threads` section as a typed table: name, tid, status, then CPU once as the
//! profiler measures it (CPU % over its last sampling interval, user and kernel time
//! together, and the highest seen) and as CPU time used so far, then allocations when
//! the report has them. The user and kernel split stays in the detail pane.

use hotpath_model::{ThreadRow, Threads, Unit};
use serde_json::Value;

use super::fields::row_keys;
use super::table::{Cell, Column, Kind, Table, TableRow};
use super::typed::units_of;

/// The table, or `None` when the JSON is not a `Threads` section (another version's report).
pub(crate) fn table(section: &Value) -> Option<Table> {
    let threads: Threads = serde_json::from_value(section.clone()).ok()?;
    let raw_rows = section["rows"].as_array()?;
    let column = |key: &str, title: &str, kind| Column { key: key.into(), title: title.into(), kind };
    let percent = |v: Option<f64>| v.map_or(Cell::Empty, Cell::Number);
    let mut columns = vec![
        column("name", "Name", Kind::Text),
        column("tid", "TID", Kind::Id),
        column("status", "Status", Kind::Text),
        column("cpu_percent", "CPU %", Kind::Unit(Unit::Percent)),
        column("max_cpu_percent", "CPU max %", Kind::Unit(Unit::Percent)),
        column("cpu_ns", "CPU time", Kind::Unit(Unit::Nanoseconds)),
    ];
    let alloc = threads.rows.iter().any(|r| r.alloc_bytes.is_some() || r.dealloc_bytes.is_some());
    if alloc {
        columns.push(column("alloc_bytes", "Allocated", Kind::Unit(Unit::Bytes)));
        columns.push(column("dealloc_bytes", "Freed", Kind::Unit(Unit::Bytes)));
    }
    let rows = threads
        .rows
        .iter()
        .zip(raw_rows)
        .zip(row_keys(raw_rows))
        .map(|((row, raw), key)| {
            let name = shown_name(row);
            let mut cells = vec![
                Cell::Text(name.clone()),
                Cell::Number(row.tid as f64),
                Cell::Text(row.status.clone()),
                percent(row.cpu_percent),
                percent(row.max_cpu_percent),
                Cell::Number(row.cpu_user_ns.saturating_add(row.cpu_sys_ns) as f64),
            ];
            if alloc {
                let bytes = |v: Option<u64>| v.map_or(Cell::Empty, |b| Cell::Number(b as f64));
                cells.extend([bytes(row.alloc_bytes), bytes(row.dealloc_bytes)]);
            }
            let key = key.unwrap_or_else(|| format!("tid {}", row.tid));
            TableRow { key, name, cells, raw: raw.clone(), units: Some(units_of(row)) }
        })
        .collect();
    // The detail pane charts the thread's user CPU time per second of the console's polls.
    Some(Table { columns, rows, counter: Some("cpu_user_ns".into()), counter_kind: Kind::Busy })
}

/// The thread's name, or `-` when it has none (its tid is in the next column).
fn shown_name(row: &ThreadRow) -> String {
    if row.name.trim().is_empty() {
        "-".into()
    } else {
        row.name.clone()
    }
}
