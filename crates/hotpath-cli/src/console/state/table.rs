//! A section's rows as a table of typed cells. `functions_timing` is read through
//! the typed model; any other section generically: its lists of row objects, a
//! name, and one column per scalar field, kind guessed from the field name
//! (`_ns` durations, `bytes` sizes, integers counts).

use std::cmp::Ordering;

use hotpath_model::{format_bytes, format_count, format_duration_ns, percentile_label, FunctionsTiming};
use serde_json::Value;

use super::history::History;

/// How a column's values are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Kind {
    #[default]
    Text,
    Count,
    Duration,
    Bytes,
    Rate,
    /// A rate of nanoseconds per second, shown as a share of one core (`12.5%`).
    Busy,
    Percent,
    Float,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Column {
    /// Field of the row object (dotted for nested objects: `percentiles_ns.p50`).
    pub(crate) key: String,
    pub(crate) title: String,
    pub(crate) kind: Kind,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cell {
    Text(String),
    Number(f64),
    Empty,
}

impl Cell {
    pub(crate) fn show(&self, kind: Kind) -> String {
        match (self, kind) {
            (Cell::Empty, _) => "-".into(),
            (Cell::Text(t), _) => t.clone(),
            (Cell::Number(n), Kind::Duration) => format_duration_ns(*n as u64),
            (Cell::Number(n), Kind::Bytes) => format_bytes(*n as u64),
            (Cell::Number(n), Kind::Count) => format_count(*n as u64),
            (Cell::Number(n), Kind::Rate) => format_rate(*n),
            (Cell::Number(n), Kind::Busy) => format!("{:.1}%", n / 1e7),
            (Cell::Number(n), Kind::Percent) => format!("{n:.1}%"),
            (Cell::Number(n), Kind::Float | Kind::Text) => format!("{n:.2}"),
        }
    }

    fn compare(&self, other: &Cell) -> Ordering {
        match (self, other) {
            (Cell::Number(a), Cell::Number(b)) => a.total_cmp(b),
            (Cell::Text(a), Cell::Text(b)) => a.cmp(b),
            (Cell::Empty, Cell::Empty) => Ordering::Equal,
            // Missing values rank below any value.
            (Cell::Empty, _) => Ordering::Less,
            (_, Cell::Empty) => Ordering::Greater,
            (Cell::Number(_), Cell::Text(_)) => Ordering::Less,
            (Cell::Text(_), Cell::Number(_)) => Ordering::Greater,
        }
    }
}

/// `12.3/s`, `4.5k/s`, `1.2M/s`: rates stay narrow.
pub(crate) fn format_rate(per_second: f64) -> String {
    match per_second {
        r if r >= 1e6 => format!("{:.1}M/s", r / 1e6),
        r if r >= 1e3 => format!("{:.1}k/s", r / 1e3),
        r => format!("{r:.1}/s"),
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TableRow {
    pub(crate) name: String,
    pub(crate) cells: Vec<Cell>,
    /// The row as the server sent it, for the detail pane.
    pub(crate) raw: Value,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Table {
    pub(crate) columns: Vec<Column>,
    pub(crate) rows: Vec<TableRow>,
    /// Field whose rate is drawn as the sparkline (`calls` for functions).
    pub(crate) counter: Option<String>,
    /// How that rate reads: [`Kind::Rate`] (per second) or [`Kind::Busy`] (share of a core).
    pub(crate) counter_kind: Kind,
}

impl Table {
    /// The table of `list` (or the section's only list) of `section`.
    pub(crate) fn build(
        name: &str,
        section: &Value,
        list: Option<&str>,
        meta: &Value,
        history: &History,
    ) -> Option<Self> {
        if name == "functions_timing" {
            return functions_timing(section, meta, history);
        }
        let lists = row_lists(section);
        match list.map(str::to_string).or_else(|| lists.into_iter().next()) {
            Some(list) => generic(name, section[list.as_str()].as_array()?, history),
            None => fields(section),
        }
    }

    /// Sorts rows by column `col`, largest first when `descending`.
    pub(crate) fn sort(&mut self, col: usize, descending: bool) {
        self.rows.sort_by(|a, b| {
            let (x, y) = (a.cells.get(col).unwrap_or(&Cell::Empty), b.cells.get(col).unwrap_or(&Cell::Empty));
            let order = x.compare(y);
            if descending {
                order.reverse()
            } else {
                order
            }
        });
    }

    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.rows.iter().position(|r| r.name == name)
    }
}

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

fn functions_timing(section: &Value, meta: &Value, history: &History) -> Option<Table> {
    let timing: FunctionsTiming = serde_json::from_value(section.clone()).ok()?;
    let percentiles: Vec<f64> =
        meta["percentiles"].as_array().map(|p| p.iter().filter_map(Value::as_f64).collect()).unwrap_or_default();
    let wall = meta["wall_ns"].as_f64().unwrap_or(0.0);
    let column = |key: &str, title: &str, kind| Column { key: key.into(), title: title.into(), kind };
    let mut columns = vec![column("name", "Function", Kind::Text), column("calls", "Calls", Kind::Count)];
    columns.push(column("calls/s", "Calls/s", Kind::Rate));
    columns.push(column("avg_ns", "Avg", Kind::Duration));
    for p in &percentiles {
        let label = percentile_label(*p);
        columns.push(column(&format!("percentiles_ns.{label}"), &label.to_uppercase(), Kind::Duration));
    }
    columns.extend([
        column("total_ns", "Total", Kind::Duration),
        column("total%", "% Total", Kind::Percent),
        column("self_ns", "Self", Kind::Duration),
    ]);
    let rows = timing
        .rows
        .iter()
        .zip(section["rows"].as_array()?)
        .map(|(row, raw)| {
            let rate = history.rate("functions_timing", &row.name, "calls");
            let mut cells = vec![Cell::Text(row.name.clone()), Cell::Number(row.calls as f64)];
            cells.push(rate.map_or(Cell::Empty, Cell::Number));
            cells.push(Cell::Number(row.avg_ns as f64));
            cells.extend(
                percentiles.iter().map(|p| row.percentiles_ns.get(*p).map_or(Cell::Empty, |v| Cell::Number(v as f64))),
            );
            let share = if wall > 0.0 { Cell::Number(row.total_ns as f64 * 100.0 / wall) } else { Cell::Empty };
            cells.extend([Cell::Number(row.total_ns as f64), share, Cell::Number(row.self_ns as f64)]);
            TableRow { name: row.name.clone(), cells, raw: raw.clone() }
        })
        .collect();
    Some(Table { columns, rows, counter: Some("calls".into()), counter_kind: Kind::Rate })
}

/// Fields never shown as columns (they are in the detail pane).
const HIDDEN: [&str; 3] = ["file", "line", "location"];
/// Integer fields that identify rather than count: never charted as a rate.
const IDS: [&str; 6] = ["tid", "pid", "id", "line", "instances", "iter"];
/// Preferred counters for the rate column and the sparkline, in order.
const COUNTERS: [&str; 11] = [
    "calls",
    "count",
    "sent_count",
    "received_count",
    "polls",
    "operations",
    "ops",
    "acquisitions",
    "items",
    "spawned_tasks",
    "samples",
];

fn generic(section: &str, rows: &[Value], history: &History) -> Option<Table> {
    let mut columns: Vec<Column> = Vec::new();
    let name_key = rows.first().and_then(|r| {
        let object = r.as_object()?;
        ["name", "label", "thread", "source"].into_iter().find(|k| object.contains_key(*k))
    });
    for row in rows {
        for (key, value) in row.as_object().into_iter().flatten() {
            if HIDDEN.contains(&key.as_str()) || Some(key.as_str()) == name_key {
                continue;
            }
            let mut add = |key: String, value: &Value, parent: &str| {
                if !columns.iter().any(|c| c.key == key) {
                    let leaf = key.rsplit('.').next().unwrap_or(&key).to_string();
                    let kind = kind_of(if parent.is_empty() { &key } else { parent }, value);
                    let title = if parent.is_empty() { title_of(&key) } else { leaf.to_uppercase() };
                    columns.push(Column { key, title, kind });
                }
            };
            match value {
                Value::Object(inner) => {
                    for (k, v) in inner.iter().filter(|(_, v)| is_scalar(v)) {
                        add(format!("{key}.{k}"), v, key);
                    }
                }
                // Flags (is_async) stay in the detail pane; they make poor columns.
                Value::Bool(_) => {}
                v if is_scalar(v) => add(key.clone(), v, ""),
                _ => {}
            }
        }
    }
    // A count if there is one; else time (CPU time per second reads as load).
    let counting = |c: &&Column| c.kind == Kind::Count && !IDS.contains(&c.key.as_str());
    let counter = COUNTERS
        .iter()
        .find_map(|c| columns.iter().find(|col| col.key == *c))
        .or_else(|| columns.iter().find(counting))
        .map(|c| (c.key.clone(), Kind::Rate))
        .or_else(|| {
            columns
                .iter()
                .find(|c| c.kind == Kind::Duration && !c.key.contains('.'))
                .map(|c| (c.key.clone(), Kind::Busy))
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
    let (counter, counter_kind) = counter.map_or((None, Kind::Rate), |(c, k)| (Some(c), k));
    all.extend(columns);
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
fn fields(section: &Value) -> Option<Table> {
    let mut rows = Vec::new();
    for (key, value) in section.as_object()? {
        let mut push = |name: String, unit_key: &str, v: &Value| {
            let shown = cell(Some(v)).show(kind_of(unit_key, v));
            rows.push(TableRow { name, cells: vec![Cell::Empty, Cell::Text(shown)], raw: json_pair(key, v) });
        };
        match value {
            Value::Object(inner) => {
                inner.iter().filter(|(_, v)| is_scalar(v)).for_each(|(k, v)| push(format!("{key}.{k}"), key, v))
            }
            v if is_scalar(v) => push(key.clone(), key, v),
            _ => {}
        }
    }
    for row in &mut rows {
        row.cells[0] = Cell::Text(row.name.clone());
    }
    let columns = vec![
        Column { key: "field".into(), title: "Field".into(), kind: Kind::Text },
        Column { key: "value".into(), title: "Value".into(), kind: Kind::Text },
    ];
    Some(Table { columns, rows, counter: None, counter_kind: Kind::Rate })
}

fn json_pair(key: &str, value: &Value) -> Value {
    let mut object = serde_json::Map::new();
    object.insert(key.to_string(), value.clone());
    Value::Object(object)
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

fn kind_of(key: &str, value: &Value) -> Kind {
    if !value.is_number() {
        Kind::Text
    } else if key.ends_with("_ns") {
        Kind::Duration
    } else if key.contains("bytes") {
        Kind::Bytes
    } else if key.ends_with("pct") || key.ends_with("percent") {
        Kind::Percent
    } else if key.ends_with("per_sec") {
        Kind::Rate
    } else if value.is_u64() || value.is_i64() {
        Kind::Count
    } else {
        Kind::Float
    }
}

/// `total_ns` → `Total`, `sent_count` → `Sent count`, `cpu_pct` → `Cpu`.
pub(crate) fn title_of(key: &str) -> String {
    let base = ["_ns", "_pct", "_percent"].iter().find_map(|s| key.strip_suffix(s)).unwrap_or(key);
    let words = base.replace('_', " ");
    let mut chars = words.chars();
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
        assert_eq!(t.rows[0].cells[4].show(Kind::Bytes), "12.4 KB");
        assert_eq!(t.rows[0].cells[6].show(Kind::Duration), "5 ns");
        assert_eq!(Cell::Number(250_000_000.0).show(Kind::Busy), "25.0%");
        let mut sorted = t.clone();
        sorted.sort(3, false);
        assert_eq!(sorted.rows[0].name, "main");
        sorted.sort(3, true);
        assert_eq!(sorted.rows[0].name, "worker-1");
    }

    #[test]
    fn lists_and_rate_columns() {
        let section = json!({"reads": [{"label": "file", "operations": 4, "bytes": 10}], "writes": []});
        assert_eq!(row_lists(&section), ["reads", "writes"]);
        let t = Table::build("io", &section, Some("reads"), &json!({}), &History::default()).unwrap();
        assert_eq!(t.counter.as_deref(), Some("operations"));
        assert_eq!(t.columns[1].title, "Operations/s");
        assert_eq!(t.rows[0].cells[1], Cell::Empty, "no rate before two polls");
        assert_eq!(title_of("total_ns"), "Total");
        assert_eq!(format_rate(94_076.1), "94.1k/s");
        assert_eq!(format_rate(2.5e6), "2.5M/s");
        assert_eq!(format_rate(12.34), "12.3/s");
        let runtime = json!({"workers": 4, "busy_ns": 1_500_000, "queues": {"global_depth": 3}});
        let t = Table::build("tokio_runtime", &runtime, None, &json!({}), &History::default()).unwrap();
        let shown: Vec<(String, String)> =
            t.rows.iter().map(|r| (r.name.clone(), r.cells[1].show(Kind::Text))).collect();
        assert_eq!(shown[1], ("busy_ns".to_string(), "1.50 ms".to_string()));
        assert_eq!(shown[2], ("queues.global_depth".to_string(), "3".to_string()));
    }
}
