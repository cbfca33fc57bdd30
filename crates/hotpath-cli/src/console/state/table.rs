//! A section's rows as a table of typed cells, sortable. Built by `build.rs`;
//! the types only, so that every builder can use them.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use hotpath_model::Unit;
use serde_json::Value;

/// How a column's values are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Kind {
    #[default]
    Text,
    /// A number that names rather than measures (`tid`, `index`): shown as it is.
    Id,
    /// A measured value, shown in its unit.
    Unit(Unit),
    /// A rate of nanoseconds per second, shown as a share of one core (`12.5%`).
    Busy,
}

impl Kind {
    /// Rates over time (drawn in their own colour).
    pub(crate) fn is_rate(self) -> bool {
        matches!(self, Kind::Busy | Kind::Unit(Unit::PerSecond | Unit::BytesPerSecond))
    }
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
            (Cell::Number(n), Kind::Unit(unit)) => unit.format(*n),
            (Cell::Number(n), Kind::Busy) => format!("{:.1}%", n / 1e7),
            (Cell::Number(n), Kind::Id | Kind::Text) => n.to_string(),
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

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TableRow {
    /// What identifies the row across polls (`tid 4250`, `app::f @ src/main.rs:3`).
    pub(crate) key: String,
    /// What the row is called on screen.
    pub(crate) name: String,
    pub(crate) cells: Vec<Cell>,
    /// The row as the server sent it, for the detail pane.
    pub(crate) raw: Value,
    /// The unit of each figure of `raw` (by dotted path) as the row's model type
    /// declares it (`hotpath_model::RowMetrics`); a number of `raw` missing here
    /// identifies rather than measures. `None` for a row read without that type, whose
    /// units the detail pane guesses from field names.
    pub(crate) units: Option<BTreeMap<String, Unit>>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Table {
    pub(crate) columns: Vec<Column>,
    pub(crate) rows: Vec<TableRow>,
    /// Field whose rate is drawn as the sparkline (`calls` for functions).
    pub(crate) counter: Option<String>,
    /// How that rate reads: per second, or [`Kind::Busy`] (share of a core).
    pub(crate) counter_kind: Kind,
}

impl Table {
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

    /// Index of the row identified by `key`.
    pub(crate) fn position(&self, key: &str) -> Option<usize> {
        self.rows.iter().position(|r| r.key == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_format_in_their_unit() {
        assert_eq!(Cell::Number(94_076.1).show(Kind::Unit(Unit::PerSecond)), "94.08 k/s");
        assert_eq!(Cell::Number(12.34).show(Kind::Unit(Unit::PerSecond)), "12.3/s");
        assert_eq!(Cell::Number(250_000_000.0).show(Kind::Busy), "25.0%");
        assert_eq!(Cell::Number(12_697.0).show(Kind::Unit(Unit::Bytes)), "12.4 KB");
        assert_eq!(Cell::Number(4250.0).show(Kind::Id), "4250");
        assert_eq!(Cell::Empty.show(Kind::Unit(Unit::Count)), "-");
        assert!(Kind::Busy.is_rate() && !Kind::Unit(Unit::Count).is_rate());
    }
}
