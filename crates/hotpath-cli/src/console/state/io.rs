//! The `io` section as a typed table whose columns follow the data: a direction
//! (reads, writes) has columns only when some row read or wrote, so a write-only
//! file leads with its writes instead of zero reads; durations only when some
//! operation of that direction was timed; flushes, shutdowns and errors only when
//! some row has any.

use hotpath_model::{percentile_label, IoRow, IoSection, IoTransfer, Section, Unit};
use serde_json::Value;

use super::fields::row_keys;
use super::history::History;
use super::table::{Cell, Column, Kind, Table, TableRow};
use super::typed::units_of;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Read,
    Write,
}

impl Direction {
    /// The row's field, as the JSON and the console's history name it.
    fn field(self) -> &'static str {
        match self {
            Direction::Read => "read",
            Direction::Write => "write",
        }
    }

    fn word(self) -> &'static str {
        match self {
            Direction::Read => "Read",
            Direction::Write => "Write",
        }
    }

    fn of(self, row: &IoRow) -> &IoTransfer {
        match self {
            Direction::Read => &row.read,
            Direction::Write => &row.write,
        }
    }

    /// Failures of the direction: a write table counts failed flushes and shutdowns too.
    fn errors(self, row: &IoRow) -> u64 {
        match self {
            Direction::Read => row.read.errors,
            Direction::Write => row.write_side_errors(),
        }
    }

    fn active(self, row: &IoRow) -> bool {
        self.of(row).ops + self.errors(row) > 0
    }
}

/// A column and how a row (with its history key) fills it.
type Filler<'a> = Box<dyn Fn(&IoRow, &str) -> Cell + 'a>;

/// The table, or `None` when the JSON is not an `IoSection` (another version's report).
pub(crate) fn table(section: &Value, meta: &Value, history: &History) -> Option<Table> {
    let io: IoSection = serde_json::from_value(section.clone()).ok()?;
    let raw_rows = section["rows"].as_array()?;
    let percentiles: Vec<f64> =
        meta["percentiles"].as_array().map(|p| p.iter().filter_map(Value::as_f64).collect()).unwrap_or_default();
    let rows = &io.rows;
    let any = |f: &dyn Fn(&IoRow) -> bool| rows.iter().any(f);
    let directions: Vec<Direction> =
        [Direction::Read, Direction::Write].into_iter().filter(|d| any(&|r| d.active(r))).collect();
    let column = |key: String, title: String, kind| Column { key, title, kind };
    let number = |v: u64| Cell::Number(v as f64);
    let (count, bytes, ns) = (Kind::Unit(Unit::Count), Kind::Unit(Unit::Bytes), Kind::Unit(Unit::Nanoseconds));
    let mut columns: Vec<(Column, Filler)> = vec![(column("name".into(), "Io".into(), Kind::Text), {
        Box::new(|r: &IoRow, _: &str| Cell::Text(r.name.clone()))
    })];
    // Counts, bytes and their rates of every direction first: what a user came for.
    for &d in &directions {
        let (f, w) = (d.field(), d.word());
        let rate = move |field: &'static str| {
            let path = format!("{f}.{field}");
            move |_: &IoRow, key: &str| history.rate(Section::Io.key(), key, &path).map_or(Cell::Empty, Cell::Number)
        };
        columns.push((column(format!("{f}.ops"), format!("{w}s"), count), Box::new(move |r, _| number(d.of(r).ops))));
        columns.push((
            column(format!("{f}.ops/s"), format!("{w}s/s"), Kind::Unit(Unit::PerSecond)),
            Box::new(rate("ops")),
        ));
        columns.push((
            column(format!("{f}.bytes"), format!("{w} bytes"), bytes),
            Box::new(move |r, _| number(d.of(r).bytes)),
        ));
        columns.push((
            column(format!("{f}.bytes/s"), format!("{w} B/s"), Kind::Unit(Unit::BytesPerSecond)),
            Box::new(rate("bytes")),
        ));
    }
    // Durations of the directions whose operations were timed.
    for &d in directions.iter().filter(|d| any(&|r| d.of(r).timed_ops > 0)) {
        let (f, w) = (d.field(), d.word());
        let timed = move |get: fn(&IoTransfer) -> Option<u64>| {
            move |r: &IoRow, _: &str| {
                let t = d.of(r);
                (t.timed_ops > 0).then(|| get(t)).flatten().map_or(Cell::Empty, number)
            }
        };
        columns.push((column(format!("{f}.avg_ns"), format!("{w} avg"), ns), Box::new(timed(|t| Some(t.avg_ns)))));
        for &p in &percentiles {
            let label = percentile_label(p);
            let title = format!("{w} {}", label.to_uppercase());
            let cell = move |r: &IoRow, _: &str| {
                let t = d.of(r);
                (t.timed_ops > 0).then(|| t.percentiles_ns.get(p)).flatten().map_or(Cell::Empty, number)
            };
            columns.push((column(format!("{f}.percentiles_ns.{label}"), title, ns), Box::new(cell)));
        }
        columns.push((column(format!("{f}.max_ns"), format!("{w} max"), ns), Box::new(timed(|t| Some(t.max_ns)))));
        // Summed time scaled up to every operation under time sampling.
        let total = timed(IoTransfer::estimated_total_ns);
        columns.push((column(format!("{f}.total_ns"), format!("{w} time"), ns), Box::new(total)));
    }
    if any(&|r| r.flush.ops > 0) {
        columns.push((column("flush.ops".into(), "Flushes".into(), count), Box::new(|r, _| number(r.flush.ops))));
    }
    if any(&|r| r.shutdown.ops > 0) {
        let shutdowns = |r: &IoRow, _: &str| number(r.shutdown.ops);
        columns.push((column("shutdown.ops".into(), "Shutdowns".into(), count), Box::new(shutdowns)));
    }
    for &d in directions.iter().filter(|d| any(&|r| d.errors(r) > 0)) {
        let title = format!("{} errors", d.word());
        columns
            .push((column(format!("{}.errors", d.field()), title, count), Box::new(move |r, _| number(d.errors(r)))));
    }
    columns.push((column("instances".into(), "Inst".into(), count), Box::new(|r, _| number(r.instances))));

    let keys = row_keys(raw_rows);
    let table_rows = rows
        .iter()
        .zip(raw_rows)
        .zip(keys)
        .map(|((row, raw), key)| {
            let key = key.unwrap_or_else(|| row.name.clone());
            let cells = columns.iter().map(|(_, fill)| fill(row, &key)).collect();
            TableRow { key, name: row.name.clone(), cells, raw: raw.clone(), units: Some(units_of(row)) }
        })
        .collect();
    let counter = directions.first().map(|d| format!("{}.ops", d.field()));
    let columns = columns.into_iter().map(|(c, _)| c).collect();
    Some(Table { columns, rows: table_rows, counter, counter_kind: Kind::Unit(Unit::PerSecond) })
}
