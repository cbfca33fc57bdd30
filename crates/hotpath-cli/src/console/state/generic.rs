//! Any section read from its JSON alone, so a section the server starts serving
//! needs no code here: its lists of row objects, each row a name and its scalar
//! fields (nested objects flattened to `lock.wait.avg_ns`), each field's kind read
//! from its name (`_ns` durations, `bytes` sizes, integers counts).

use serde_json::{Map, Value};

use super::history::History;
use super::table::{Cell, Column, Kind, Table, TableRow};

/// Fields never shown as columns (they are in the detail pane).
const HIDDEN: [&str; 3] = ["file", "line", "location"];
/// Integer fields that identify or configure rather than count: never charted as a rate.
const IDS: [&str; 7] = ["tid", "pid", "id", "line", "instances", "iter", "capacity"];
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
/// How deep nested objects are flattened.
const DEPTH: usize = 4;

/// Fields of `section` holding lists of row objects (`rows`, or `reads` and `writes`).
pub(crate) fn row_lists(section: &Value) -> Vec<String> {
    let Some(fields) = section.as_object() else { return Vec::new() };
    fields
        .iter()
        .filter(|(_, v)| v.as_array().is_some_and(|rows| rows.iter().all(Value::is_object)))
        .map(|(k, _)| k.clone())
        .collect()
}

/// The display name of a row: `name`, `label`, or its first text field.
pub(crate) fn row_name(row: &Value) -> Option<String> {
    let object = row.as_object()?;
    ["name", "label", "thread", "source"]
        .iter()
        .find_map(|k| object.get(*k).and_then(Value::as_str))
        .or_else(|| object.values().find_map(Value::as_str))
        .map(str::to_string)
}

/// Every scalar of `value` with its dotted path, nested objects included.
pub(crate) fn flatten(value: &Value) -> Vec<(String, &Value)> {
    fn walk<'a>(prefix: &str, value: &'a Value, depth: usize, out: &mut Vec<(String, &'a Value)>) {
        let Some(object) = value.as_object() else { return };
        for (key, v) in object {
            let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
            match v {
                Value::Object(_) if depth < DEPTH => walk(&path, v, depth + 1, out),
                v if is_scalar(v) => out.push((path, v)),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk("", value, 1, &mut out);
    out
}

/// The table of one list of rows.
pub(crate) fn rows(section: &str, rows: &[Value], history: &History) -> Option<Table> {
    let name_key = rows.first().and_then(|r| {
        let object = r.as_object()?;
        ["name", "label", "thread", "source"].into_iter().find(|k| object.contains_key(*k))
    });
    let mut columns: Vec<Column> = Vec::new();
    for row in rows {
        for (key, value) in flatten(row) {
            let top = key.split('.').next().unwrap_or_default();
            // Flags (is_async) stay in the detail pane; they make poor columns.
            if HIDDEN.contains(&top) || Some(key.as_str()) == name_key || value.is_boolean() {
                continue;
            }
            if !columns.iter().any(|c| c.key == key) {
                columns.push(Column { title: title_of(&key), kind: kind_of(&key, value), key });
            }
        }
    }
    // A count if there is one; else time (CPU time per second reads as load).
    let counting = |c: &&Column| c.kind == Kind::Count && !IDS.contains(&c.key.as_str()) && !c.key.contains('.');
    let counter = COUNTERS
        .iter()
        .find_map(|c| columns.iter().find(|col| col.key == *c))
        .or_else(|| columns.iter().find(counting))
        .map(|c| (c.key.clone(), Kind::Rate))
        .or_else(|| {
            let time = columns.iter().find(|c| c.kind == Kind::Duration && !c.key.contains('.'));
            time.map(|c| (c.key.clone(), Kind::Busy))
        });
    let mut all = vec![Column { key: name_key.unwrap_or("name").into(), title: "Name".into(), kind: Kind::Text }];
    if let Some((counter, kind)) = &counter {
        let title = if *kind == Kind::Busy {
            format!("{} load", title_of(counter))
        } else {
            format!("{}/s", title_of(counter))
        };
        all.push(Column { key: format!("{counter}/s"), title, kind: *kind });
    }
    all.extend(columns);
    let (counter, counter_kind) = counter.map_or((None, Kind::Rate), |(c, k)| (Some(c), k));
    let rows = rows
        .iter()
        .filter_map(|raw| {
            let name = row_name(raw)?;
            let cells = all
                .iter()
                .map(|c| match c.key.strip_suffix("/s") {
                    Some(field) if matches!(c.kind, Kind::Rate | Kind::Busy) => {
                        history.rate(section, &name, field).map_or(Cell::Empty, Cell::Number)
                    }
                    _ => cell(lookup(raw, &c.key)),
                })
                .collect();
            Some(TableRow { name, cells, raw: raw.clone() })
        })
        .collect();
    Some(Table { columns: all, rows, counter, counter_kind })
}

/// A section without row lists (runtime-wide figures): one row per field.
pub(crate) fn fields(section: &Value) -> Option<Table> {
    section.as_object()?;
    let rows = flatten(section)
        .into_iter()
        .map(|(key, v)| {
            let shown = cell(Some(v)).show(kind_of(&key, v));
            let mut raw = Map::new();
            raw.insert(key.clone(), v.clone());
            TableRow { cells: vec![Cell::Text(key.clone()), Cell::Text(shown)], name: key, raw: Value::Object(raw) }
        })
        .collect();
    let columns = vec![
        Column { key: "field".into(), title: "Field".into(), kind: Kind::Text },
        Column { key: "value".into(), title: "Value".into(), kind: Kind::Text },
    ];
    Some(Table { columns, rows, counter: None, counter_kind: Kind::Rate })
}

/// A scalar formatted for people by its field's kind.
pub(crate) fn show_value(key: &str, value: &Value) -> String {
    cell(Some(value)).show(kind_of(key, value))
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::Number(_) | Value::String(_) | Value::Bool(_))
}

fn lookup<'a>(row: &'a Value, key: &str) -> Option<&'a Value> {
    key.split('.').try_fold(row, |v, k| v.get(k))
}

fn cell(value: Option<&Value>) -> Cell {
    match value {
        Some(Value::Number(n)) => n.as_f64().map_or(Cell::Empty, Cell::Number),
        Some(Value::String(s)) => Cell::Text(s.clone()),
        Some(Value::Bool(b)) => Cell::Text(if *b { "yes" } else { "no" }.into()),
        _ => Cell::Empty,
    }
}

/// The kind of a (dotted) field: from its own name, else from the nearest parent
/// that names a unit (`percentiles_ns.p50` is a duration).
pub(crate) fn kind_of(key: &str, value: &Value) -> Kind {
    if !value.is_number() {
        return Kind::Text;
    }
    for part in key.rsplit('.') {
        if part.ends_with("_ns") {
            return Kind::Duration;
        } else if part.contains("bytes") {
            return Kind::Bytes;
        } else if part.ends_with("pct") || part.ends_with("percent") {
            return Kind::Percent;
        } else if part.ends_with("per_sec") {
            return Kind::Rate;
        }
    }
    if value.is_u64() || value.is_i64() {
        Kind::Count
    } else {
        Kind::Float
    }
}

/// `total_ns` → `Total`, `sent_count` → `Sent count`, `lock.wait.avg_ns` → `Lock wait avg`,
/// `percentiles_ns.p50` → `P50`.
pub(crate) fn title_of(key: &str) -> String {
    let words: Vec<String> = key
        .split('.')
        .filter(|part| *part != "percentiles_ns" && *part != "percentiles")
        .map(|part| {
            let base = ["_ns", "_pct", "_percent"].iter().find_map(|s| part.strip_suffix(s)).unwrap_or(part);
            if base.len() <= 5 && base.starts_with('p') && base[1..].chars().all(|c| c.is_ascii_digit() || c == '.') {
                base.to_uppercase()
            } else {
                base.replace('_', " ")
            }
        })
        .collect();
    let joined = words.join(" ");
    let mut chars = joined.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn generic_sections_become_tables() {
        let section = json!({"rss_bytes": 1, "rows": [
            {"name": "worker-1", "tid": 8, "is_main": false, "cpu_pct": 98.2, "alloc_bytes": 12697, "status": "Running", "user_ns": 5, "file": "x.rs"},
            {"name": "main", "tid": 7, "is_main": true, "cpu_pct": 6.3, "alloc_bytes": 367800, "status": "Sleeping", "user_ns": 7, "file": "y.rs"}
        ]});
        let t = Table::build("threads", &section, None, &json!({}), &History::default()).unwrap();
        let titles: Vec<&str> = t.columns.iter().map(|c| c.title.as_str()).collect();
        // No count (tid identifies): CPU time per second, as load, is the rate column.
        assert_eq!(titles, ["Name", "User load", "Tid", "Cpu", "Alloc bytes", "Status", "User"]);
        assert_eq!((t.counter.as_deref(), t.counter_kind), (Some("user_ns"), Kind::Busy));
        assert_eq!(t.columns[4].kind, Kind::Bytes);
        assert_eq!(t.rows[0].cells[6].show(Kind::Duration), "5 ns");
        let mut sorted = t.clone();
        sorted.sort(3, false);
        assert_eq!(sorted.rows[0].name, "main");
        sorted.sort(3, true);
        assert_eq!(sorted.rows[0].name, "worker-1");
    }

    #[test]
    fn nested_fields_are_flattened_with_their_units() {
        let section = json!({"rows": [{"name": "state", "kind": "std", "instances": 2,
            "lock": {"acquisitions": 40, "contended": 3, "wait": {"count": 40, "avg_ns": 1500, "percentiles_ns": {"p50": 900}}}}]});
        let t = Table::build("mutexes", &section, None, &json!({}), &History::default()).unwrap();
        let columns: Vec<(&str, &str, Kind)> =
            t.columns.iter().map(|c| (c.key.as_str(), c.title.as_str(), c.kind)).collect();
        assert_eq!(columns[1], ("lock.acquisitions/s", "Lock acquisitions/s", Kind::Rate));
        assert!(columns.contains(&("lock.wait.avg_ns", "Lock wait avg", Kind::Duration)), "{columns:?}");
        assert!(columns.contains(&("lock.wait.percentiles_ns.p50", "Lock wait P50", Kind::Duration)), "{columns:?}");
        assert!(columns.contains(&("instances", "Instances", Kind::Count)));
    }

    #[test]
    fn lists_and_field_sections() {
        let section = json!({"reads": [{"label": "file", "operations": 4, "bytes": 10}], "writes": []});
        assert_eq!(row_lists(&section), ["reads", "writes"]);
        let t = Table::build("io", &section, Some("reads"), &json!({}), &History::default()).unwrap();
        assert_eq!(t.counter.as_deref(), Some("operations"));
        assert_eq!(t.columns[1].title, "Operations/s");
        assert_eq!(t.rows[0].cells[1], Cell::Empty, "no rate before two polls");
        let runtime = json!({"workers": 4, "busy_ns": 1_500_000, "queues": {"global_depth": 3}});
        let t = Table::build("tokio_runtime", &runtime, None, &json!({}), &History::default()).unwrap();
        let shown: Vec<(String, String)> =
            t.rows.iter().map(|r| (r.name.clone(), r.cells[1].show(Kind::Text))).collect();
        assert_eq!(shown[1], ("busy_ns".to_string(), "1.50 ms".to_string()));
        assert_eq!(shown[2], ("queues.global_depth".to_string(), "3".to_string()));
    }
}
