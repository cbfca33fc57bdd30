//! The typed tables take each figure's unit from the row's model type, never from the
//! field's name.

use hotpath_model::{
    ChannelRow, Channels, DbgRow, DebugRow, DebugTrackers, FutureRow, Futures, GaugeRow, Http, HttpRow, Judging,
    MutexRow, Mutexes, Percentiles, RowMetric, RowMetrics, RwLockRow, RwLocks, Section, Server, ServerRow, Sql, SqlRow,
    StreamRow, Streams, Unit,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{rows, table};
use crate::console::state::build;
use crate::console::state::history::History;
use crate::console::state::table::{Kind, Table};

/// A row whose type declares units its field names contradict: `Unit::of_field` would
/// call `wait_ns` nanoseconds and `queue_bytes` bytes.
#[derive(Serialize, Deserialize)]
struct Probe {
    name: String,
    wait_ns: u64,
    queue_bytes: u64,
}

#[derive(Serialize, Deserialize)]
struct Probes {
    rows: Vec<Probe>,
}

impl RowMetrics for Probe {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        vec![
            RowMetric { key: "wait_ns".into(), unit: Unit::Count, value: self.wait_ns as f64, judging: Judging::Exact },
            RowMetric {
                key: "queue_bytes".into(),
                unit: Unit::Percent,
                value: self.queue_bytes as f64,
                judging: Judging::Statistical,
            },
        ]
    }
}

fn kind(table: &Table, key: &str) -> Kind {
    table.columns.iter().find(|c| c.key == key).unwrap_or_else(|| panic!("no column {key}: {table:?}")).kind
}

#[test]
fn units_come_from_the_type_not_the_field_name() {
    let section = serde_json::to_value(Probes { rows: vec![Probe { name: "p".into(), wait_ns: 3, queue_bytes: 4 }] });
    let t = rows(Section::Channels, &section.unwrap(), &History::default(), |s: &Probes| &s.rows).unwrap();
    assert_eq!(kind(&t, "wait_ns"), Kind::Unit(Unit::Count));
    assert_eq!(kind(&t, "queue_bytes"), Kind::Unit(Unit::Percent));
    let row = &t.rows[0];
    let units = row.units.as_ref().unwrap();
    assert_eq!((units["wait_ns"], units["queue_bytes"]), (Unit::Count, Unit::Percent));
    let col = t.columns.iter().position(|c| c.key == "queue_bytes").unwrap();
    assert_eq!(row.cells[col].show(t.columns[col].kind), "4.0%");
}

fn durations() -> hotpath_model::DurationStats {
    let mut d = hotpath_model::DurationStats::default();
    (d.count, d.total_ns, d.avg_ns, d.max_ns) = (4, 4_000, 1_000, 2_000);
    d.percentiles_ns = Percentiles(vec![(50.0, 900), (99.9, 1_900)]);
    d
}

/// Every Data flow, Services and Debug section, serialized as the server sends it.
fn sections() -> Vec<(Section, Value, Vec<Vec<RowMetric>>)> {
    let to = |v: Result<Value, serde_json::Error>| v.unwrap();
    let mut out = Vec::new();
    let mut channel = ChannelRow::default();
    channel.name = "jobs".into();
    channel.capacity = Some(8);
    channel.sent = 9;
    (channel.blocked, channel.latency) = (durations(), durations());
    let mut s = Channels::default();
    s.rows.push(channel);
    out.push((Section::Channels, to(serde_json::to_value(&s)), s.rows.iter().map(|r| r.row_metrics()).collect()));
    let mut stream = StreamRow::default();
    stream.name = "lines".into();
    stream.items = 5;
    stream.items_per_sec = 2.5;
    stream.item_interval = durations();
    let mut s = Streams::default();
    s.rows.push(stream);
    out.push((Section::Streams, to(serde_json::to_value(&s)), s.rows.iter().map(|r| r.row_metrics()).collect()));
    let mut future = FutureRow::default();
    future.name = "fetch".into();
    future.calls = 3;
    future.alloc_bytes_avg = Some(64);
    future.wall = durations();
    let mut s = Futures::default();
    s.rows.push(future);
    out.push((Section::Futures, to(serde_json::to_value(&s)), s.rows.iter().map(|r| r.row_metrics()).collect()));
    let mut mutex = MutexRow::default();
    mutex.name = "state".into();
    mutex.instances = 1;
    (mutex.lock.wait, mutex.lock.hold) = (durations(), durations());
    let mut s = Mutexes::default();
    s.rows.push(mutex);
    out.push((Section::Mutexes, to(serde_json::to_value(&s)), s.rows.iter().map(|r| r.row_metrics()).collect()));
    let mut rw = RwLockRow::default();
    rw.name = "cache".into();
    rw.reads.wait = durations();
    let mut s = RwLocks::default();
    s.rows.push(rw);
    out.push((Section::RwLocks, to(serde_json::to_value(&s)), s.rows.iter().map(|r| r.row_metrics()).collect()));
    let mut route = ServerRow::default();
    route.name = "GET /".into();
    route.requests = 4;
    route.total_percent = 12.5;
    (route.latency, route.scope, route.alloc) = (durations(), Some(Default::default()), Some(Default::default()));
    let mut s = Server::default();
    s.rows.push(route);
    out.push((Section::Server, to(serde_json::to_value(&s)), s.rows.iter().map(|r| r.row_metrics()).collect()));
    let mut call = HttpRow::default();
    call.name = "GET api/x".into();
    call.calls = 2;
    call.response_bytes = 2048;
    call.latency = durations();
    let mut s = Http::default();
    s.rows.push(call);
    out.push((Section::Http, to(serde_json::to_value(&s)), s.rows.iter().map(|r| r.row_metrics()).collect()));
    let mut query = SqlRow::default();
    query.name = "SELECT ?".into();
    query.calls = 2;
    query.latency = durations();
    let mut s = Sql::default();
    s.rows.push(query);
    out.push((Section::Sql, to(serde_json::to_value(&s)), s.rows.iter().map(|r| r.row_metrics()).collect()));
    let mut s = DebugTrackers::default();
    let mut dbg = DbgRow::default();
    (dbg.name, dbg.count, dbg.last_at_ns) = ("x + 1".into(), 2, 5);
    s.rows.push(DebugRow::Dbg(dbg));
    let mut gauge = GaugeRow::default();
    gauge.name = "depth".into();
    gauge.updates = 7;
    gauge.current = 2.5;
    gauge.max = f64::NAN;
    s.rows.push(DebugRow::Gauge(gauge));
    out.push((Section::Debug, to(serde_json::to_value(&s)), s.rows.iter().map(|r| r.row_metrics()).collect()));
    out
}

#[test]
fn every_typed_table_shows_each_figure_in_its_types_unit() {
    for (section, json, metrics) in sections() {
        let t = table(section, &json, &History::default()).unwrap_or_else(|| panic!("{section:?} is typed"));
        // The console builds it so (compared as text: a gauge's NaN is no equal of itself).
        let built = build::table(section, &json, None, &serde_json::json!({}), &History::default());
        assert_eq!(format!("{built:?}"), format!("{:?}", Some(&t)), "{section:?}");
        for (row, metrics) in t.rows.iter().zip(&metrics) {
            let units = row.units.as_ref().unwrap();
            for m in metrics {
                assert_eq!(units[&m.key], m.unit, "{section:?} {}", m.key);
                let col = t.columns.iter().position(|c| c.key == m.key);
                let col = col.unwrap_or_else(|| panic!("{section:?}: no column {}", m.key));
                assert_eq!(t.columns[col].kind, Kind::Unit(m.unit), "{section:?} {}", m.key);
                assert_eq!(row.cells[col].show(t.columns[col].kind), m.unit.format(m.value), "{section:?} {}", m.key);
            }
        }
        // Every other number identifies (an id, a column) and is no unit's.
        for c in t.columns.iter().filter(|c| !c.kind.is_rate() && matches!(c.kind, Kind::Unit(_))) {
            assert!(metrics.iter().flatten().any(|m| m.key == c.key), "{section:?}: {} has a guessed unit", c.key);
        }
    }
}
