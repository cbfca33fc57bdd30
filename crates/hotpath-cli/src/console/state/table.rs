//! A section's rows as a table of typed cells, sortable. `functions_timing` is read
//! through the typed model; every other section through `generic`.

use std::cmp::Ordering;

use hotpath_model::{format_bytes, format_count, format_duration_ns, percentile_label, FunctionsTiming};
use serde_json::Value;

use super::generic::{self, row_lists};
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
            Some(list) => generic::rows(name, section[list.as_str()].as_array()?, history),
            None => generic::fields(section),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_cells_format() {
        assert_eq!(format_rate(94_076.1), "94.1k/s");
        assert_eq!(format_rate(2.5e6), "2.5M/s");
        assert_eq!(format_rate(12.34), "12.3/s");
        assert_eq!(Cell::Number(250_000_000.0).show(Kind::Busy), "25.0%");
        assert_eq!(Cell::Number(12_697.0).show(Kind::Bytes), "12.4 KB");
        assert_eq!(Cell::Empty.show(Kind::Count), "-");
    }
}
