//! Any section read from its JSON alone, so a section the server starts serving
//! needs no code here: its lists of row objects, each row a name and its scalar
//! fields (nested objects flattened to `lock.wait.avg_ns`), each field's unit guessed
//! from its name by `hotpath_model::Unit::of_field`, each title a label made of the
//! field's words. Sections the model types are read by their types instead (`typed.rs`,
//! `timing.rs`, `io.rs`, ...); this reader is for the others and for a report their
//! types cannot read (another build's). The row layout (`assemble`) is shared.

use std::collections::BTreeMap;

use hotpath_model::Unit;
use serde_json::{Map, Value};

use super::fields::{flatten, lookup, name_field, row_keys, row_name, unit_of, Field};
use super::history::History;
use super::labels::title_of;
use super::table::{Cell, Column, Kind, Table, TableRow};

/// Fields never shown as columns (they are in the detail pane).
const HIDDEN: [&str; 3] = ["file", "line", "location"];
/// Counts that configure or describe rather than happen: never charted as a rate.
const NOT_COUNTERS: [&str; 3] = ["instances", "iter", "capacity"];
/// Preferred counters for the rate column and the sparkline, in order.
const COUNTERS: [&str; 16] = [
    "calls",
    "count",
    "sent",
    "sent_count",
    "received",
    "received_count",
    "items",
    "polls",
    "lock.acquisitions",
    "reads.acquisitions",
    "read.ops",
    "write.ops",
    "operations",
    "ops",
    "spawned_tasks",
    "samples",
];

/// How a field shows: in its unit, as an id, or as text.
pub(crate) fn kind_of(field: &Field<'_>) -> Kind {
    match field.unit() {
        Some(unit) => Kind::Unit(unit),
        None if field.value.is_number() => Kind::Id,
        None => Kind::Text,
    }
}

/// Whether a field of a row is a column: not the name, not a flag (`is_async` stays
/// in the detail pane; flags make poor columns), not where the row is in the source.
pub(crate) fn shown(field: &Field<'_>, name_key: Option<&str>) -> bool {
    let top = field.path.split('.').next().unwrap_or_default();
    !HIDDEN.contains(&top) && Some(field.path.as_str()) != name_key && !field.value.is_boolean()
}

/// The table of one list of rows read without a type, each field's unit guessed from
/// its name (`hotpath_model::Unit::of_field`): only for a section the model has no row
/// type for, or whose JSON its type cannot read (a report of another build);
/// `typed.rs` reads the others.
pub(crate) fn rows(section: &str, rows: &[Value], history: &History) -> Table {
    let name_key = rows.first().and_then(name_field);
    let mut columns: Vec<Column> = Vec::new();
    for row in rows {
        for field in flatten(row).into_iter().filter(|f| shown(f, name_key)) {
            if !columns.iter().any(|c| c.key == field.path) {
                columns.push(Column { title: title_of(&field.path), kind: kind_of(&field), key: field.path });
            }
        }
    }
    let sources = rows
        .iter()
        .zip(row_keys(rows))
        .filter_map(|(raw, key)| Some(Source { key: key?, name: row_name(raw)?, raw, figures: None }))
        .collect();
    assemble(section, name_key.unwrap_or("name"), columns, history, sources)
}

/// One row to lay out: what identifies it, its name, its JSON, and, read through its
/// model type, its figures by dotted path with their units (`None`: read without a
/// type, every cell straight from the JSON).
pub(crate) struct Source<'a> {
    pub(crate) key: String,
    pub(crate) name: String,
    pub(crate) raw: &'a Value,
    pub(crate) figures: Option<BTreeMap<String, (Unit, f64)>>,
}

/// The table of `rows` under `columns` (in the JSON's order): the name first, then
/// the charted counter's rate, then the columns a user came for (`lead`), then the rest.
pub(crate) fn assemble(
    section: &str,
    name_key: &str,
    mut columns: Vec<Column>,
    history: &History,
    rows: Vec<Source<'_>>,
) -> Table {
    let counter = counter(&columns);
    lead(&mut columns, counter.as_ref());
    let mut all = vec![Column { key: name_key.into(), title: "Name".into(), kind: Kind::Text }];
    if let Some((counter, kind)) = &counter {
        let title = match kind {
            Kind::Busy => format!("{} load", title_of(counter)),
            _ => format!("{}/s", title_of(counter)),
        };
        all.push(Column { key: format!("{counter}/s"), title, kind: *kind });
    }
    all.extend(columns);
    let (counter, counter_kind) = counter.map_or((None, Kind::Unit(Unit::PerSecond)), |(c, k)| (Some(c), k));
    let rows = rows
        .into_iter()
        .map(|row| {
            let cells = all
                .iter()
                .enumerate()
                .map(|(i, c)| match (c.key.strip_suffix("/s"), &row.figures) {
                    (Some(field), _) if c.kind.is_rate() => {
                        history.rate(section, &row.key, field).map_or(Cell::Empty, Cell::Number)
                    }
                    (_, Some(_)) if i == 0 => Cell::Text(row.name.clone()),
                    (_, Some(figures)) if matches!(c.kind, Kind::Unit(_)) => {
                        figures.get(&c.key).map_or(Cell::Empty, |(_, v)| Cell::Number(*v))
                    }
                    _ => cell(lookup(row.raw, &c.key)),
                })
                .collect();
            let units = row.figures.map(|f| f.into_iter().map(|(key, (unit, _))| (key, unit)).collect());
            TableRow { key: row.key, name: row.name, cells, raw: row.raw.clone(), units }
        })
        .collect();
    Table { columns: all, rows, counter, counter_kind }
}

/// The column whose rate is charted: a preferred counter, any count, else a time
/// (CPU time per second reads as load).
fn counter(columns: &[Column]) -> Option<(String, Kind)> {
    let counting = |c: &&Column| {
        c.kind == Kind::Unit(Unit::Count) && !NOT_COUNTERS.contains(&c.key.as_str()) && !c.key.contains('.')
    };
    let per_second = |c: &Column| match c.kind {
        Kind::Unit(Unit::Bytes) => Kind::Unit(Unit::BytesPerSecond),
        _ => Kind::Unit(Unit::PerSecond),
    };
    COUNTERS
        .iter()
        .find_map(|c| columns.iter().find(|col| col.key == *c))
        .or_else(|| columns.iter().find(counting))
        .map(|c| (c.key.clone(), per_second(c)))
        .or_else(|| {
            let time = columns.iter().find(|c| c.kind == Kind::Unit(Unit::Nanoseconds) && !c.key.contains('.'));
            time.map(|c| (c.key.clone(), Kind::Busy))
        })
}

/// The columns a user came for first: the charted count (`requests`, `calls`), then
/// the first duration summary (`latency`, `wall`) as avg, percentiles, max, total;
/// every other column after them, in the order the JSON has them.
fn lead(columns: &mut [Column], counter: Option<&(String, Kind)>) {
    let counted = counter.filter(|(_, kind)| !matches!(kind, Kind::Busy)).map(|(key, _)| key.as_str());
    let summary = columns.iter().find_map(|c| c.key.strip_suffix(".avg_ns")).map(|p| format!("{p}."));
    let rank = |c: &Column| {
        if Some(c.key.as_str()) == counted {
            return 0;
        }
        let Some(field) = summary.as_deref().and_then(|p| c.key.strip_prefix(p)) else { return 6 };
        match field {
            "avg_ns" => 1,
            f if f.starts_with("percentiles_ns.") => 2,
            "max_ns" => 3,
            "total_ns" => 4,
            _ => 5,
        }
    };
    // A stable sort: columns of one rank keep their JSON order.
    columns.sort_by_key(rank);
}

/// A section without row lists (runtime-wide figures): one row per field.
pub(crate) fn fields(section: &Value) -> Option<Table> {
    section.as_object()?;
    let rows = flatten(section)
        .into_iter()
        .map(|field| {
            let shown = cell(Some(field.value)).show(kind_of(&field));
            let mut raw = Map::new();
            raw.insert(field.path.clone(), field.value.clone());
            let title = title_of(&field.path);
            TableRow {
                key: field.path,
                name: title.clone(),
                cells: vec![Cell::Text(title), Cell::Text(shown)],
                raw: Value::Object(raw),
                units: None,
            }
        })
        .collect();
    let columns = vec![
        Column { key: "field".into(), title: "Field".into(), kind: Kind::Text },
        Column { key: "value".into(), title: "Value".into(), kind: Kind::Text },
    ];
    Some(Table { columns, rows, counter: None, counter_kind: Kind::Unit(Unit::PerSecond) })
}

/// A scalar named `name` (inside `parent`) formatted for people by its unit.
pub(crate) fn show_value(name: &str, parent: Option<&str>, value: &Value) -> String {
    let kind = match unit_of(name, parent, value) {
        Some(unit) => Kind::Unit(unit),
        None if value.is_number() => Kind::Id,
        None => Kind::Text,
    };
    cell(Some(value)).show(kind)
}

/// A scalar shown in `unit` when its type gives one; a number without one identifies.
pub(crate) fn show_typed(unit: Option<hotpath_model::Unit>, value: &Value) -> String {
    let kind = match unit {
        Some(unit) => Kind::Unit(unit),
        None if value.is_number() => Kind::Id,
        None => Kind::Text,
    };
    cell(Some(value)).show(kind)
}

fn cell(value: Option<&Value>) -> Cell {
    match value {
        Some(Value::Number(n)) => n.as_f64().map_or(Cell::Empty, Cell::Number),
        Some(Value::String(s)) => Cell::Text(s.clone()),
        Some(Value::Bool(b)) => Cell::Text(if *b { "yes" } else { "no" }.into()),
        _ => Cell::Empty,
    }
}

#[cfg(test)]
mod tests;
