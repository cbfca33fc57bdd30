//! Sections compared through their typed model: each row lists its figures with the
//! units its type declares (`hotpath_model::RowMetrics`), no field-name guessing.
//! The keys and labels are those the generic reader gives the same JSON (a test
//! below holds them equal), so judging and output are unchanged.

use hotpath_model::{Report, SECTIONS};

use super::samples::{RunSamples, Section};

/// Adds every section of `report` whose rows list their figures
/// (`SectionData::visit_row_figures`) and that `compared` accepts (by key) to
/// `samples`; the others are left to the generic reader. A new section whose rows
/// implement `RowMetrics` is compared typed with no code here. Rows are read one at a
/// time, so a large report costs its samples, not a copy of its figures.
pub(crate) fn add(samples: &mut RunSamples, report: &Report, compared: impl Fn(&str) -> bool) {
    let limit = report.meta.limit;
    for def in SECTIONS.iter().filter(|d| compared(d.key)) {
        // A section already read by a reader of its own (`functions_timing`) keeps that reading.
        let Some(data) = report.section(def.section).filter(|_| !samples.sections.contains_key(def.key)) else {
            continue;
        };
        let (mut section, mut rows) = (Section::default(), 0);
        let typed = data.visit_row_figures(&mut |name, metrics| {
            rows += 1;
            for m in metrics {
                section.push_judged(name, &m.key, &m.key, m.unit, m.judging, m.value);
            }
        });
        if typed {
            // A section holding exactly `limit` rows may have been cut.
            section.truncated = limit > 0 && rows >= limit;
            samples.sections.insert(def.key.to_string(), section);
        }
    }
}

#[cfg(test)]
mod tests {
    use hotpath_model::{Report, Unit};
    use serde::de::DeserializeSeed;
    use serde_json::{json, Value};

    use super::*;

    /// The sections of the fixture below, each with rows that list their figures.
    const KEYS: [&str; 11] = [
        "mutexes",
        "rw_locks",
        "channels",
        "futures",
        "streams",
        "io",
        "server",
        "http",
        "sql",
        "functions_alloc",
        "functions_icount",
    ];
    use crate::compare::generic::SectionSeed;

    fn lock(base: u64) -> Value {
        let wait = json!({"count": base, "total_ns": base * 10, "avg_ns": 10, "max_ns": 90,
            "percentiles_ns": {"p50": 8, "p99.9": 80}});
        json!({"acquisitions": base, "contended": 2, "wait": wait, "hold": wait})
    }

    fn report() -> Value {
        json!({
            "schema_version": 1,
            "meta": {"hotpath_version": "0.23.0", "caller": "app::main", "pid": 1, "started_unix_ms": 0,
                     "wall_ns": 5000, "ended_by": "main_returned", "percentiles": [50.0, 99.9], "limit": 2,
                     "clock": "tsc", "dropped": 0},
            "mutexes": {"total_mutexes": 3, "rows": [
                {"name": "ledger", "file": "a.rs", "line": 4, "kind": "std", "data_type": "Vec<u8>",
                 "instances": 1, "lock": lock(41), "derefs": 3},
                {"name": "cache", "file": "a.rs", "line": 9, "kind": "std", "data_type": "u8",
                 "instances": 2, "lock": lock(7), "derefs": 0}]},
            "rw_locks": {"total_rw_locks": 1, "rows": [
                {"name": "config", "file": "b.rs", "line": 2, "kind": "std", "data_type": "String",
                 "instances": 1, "reads": lock(100), "writes": lock(3), "derefs": 0}]},
            "channels": {"slow_consumer_rule": "r", "total_channels": 2, "rows": [
                {"name": "jobs", "file": "c.rs", "line": 5, "kind": "tokio_mpsc", "message_type": "Job",
                 "capacity": 16, "instances": 1, "closed_instances": 1, "state": "closed", "sent": 9,
                 "received": 9, "queue_len": 0, "max_queue_len": 4, "blocked": lock(1)["wait"],
                 "latency": lock(9)["hold"], "slow_consumer": false, "slow_consumer_now": false, "derefs": 0},
                {"name": "events", "file": "c.rs", "line": 8, "kind": "std_mpsc", "message_type": "Ev",
                 "instances": 1, "closed_instances": 0, "state": "open", "sent": 3, "received": 2,
                 "queue_len": 1, "max_queue_len": 1, "blocked": lock(0)["wait"], "latency": lock(2)["hold"],
                 "slow_consumer": false, "slow_consumer_now": false, "derefs": 2}]},
            "futures": {"total_futures": 2, "rows": [
                {"name": "fetch", "file": "d.rs", "line": 1, "kind": "future", "calls": 4, "timed_calls": 2,
                 "cancelled": 1, "polls": 9, "busy_ns": 70, "wall": lock(4)["wait"], "alloc_bytes_avg": 64,
                 "allocs_avg": 2},
                {"name": "idle", "file": "d.rs", "line": 3, "kind": "async_fn", "calls": 1, "cancelled": 0,
                 "polls": 1, "busy_ns": 5, "wall": lock(1)["hold"]}]},
            "streams": {"total_streams": 1, "rows": [
                {"name": "ticks", "file": "e.rs", "line": 2, "item_type": "u64", "instances": 1, "active": 0,
                 "completed": 1, "cancelled": 0, "items": 30, "lifetime_ns": 9000, "items_per_sec": 2.5,
                 "item_interval": lock(30)["wait"]}]},
            "io": {"total_entries": 1, "time_sampling_rate": 1.0, "rows": [
                {"name": "log", "file": "f.rs", "line": 7, "type_name": "File", "iter": false, "instances": 1,
                 "read": transfer(0), "write": transfer(4096),
                 "flush": {"ops": 2, "errors": 0, "timed_ops": 2, "timed_ns": 900},
                 "shutdown": {"ops": 0, "errors": 0, "timed_ops": 0, "timed_ns": 0}}]},
            "server": {"total_routes": 1, "requests": 8, "total_ns": 800, "route_scope": true, "rows": [
                {"name": "GET /users/{id}", "method": "GET", "route": "/users/{id}", "matched": true,
                 "requests": 8, "cancelled": 1, "status": status(), "in_flight": 0, "in_flight_max": 2,
                 "latency": lock(8)["wait"], "total_percent": 71.5,
                 "scope": {"requests": 8, "sql_queries": 8, "sql_ns": 960, "http_calls": 1, "http_ns": 50,
                           "function_ns": 11},
                 "alloc": {"total_bytes": 14000, "avg_bytes": 1750, "max_bytes": 2100,
                           "percentiles_bytes": {"p50": 1700, "p99.9": 2100}, "avg_allocs": 16}}]},
            "http": {"total_endpoints": 1, "calls": 2, "total_ns": 90, "rows": [
                {"name": "GET h/{id} <- GET /p", "endpoint": "GET h/{id}", "method": "GET", "client": "ureq",
                 "route": "GET /p", "calls": 2, "status": status(), "transport_errors": 1, "errors": 2,
                 "latency": lock(2)["hold"], "total_percent": 100.0, "response_bytes": 512,
                 "sized_responses": 1}]},
            "sql": {"total_queries": 1, "calls": 3, "total_ns": 30, "rows": [
                {"name": "SELECT ?", "query": "SELECT ?", "library": "sqlx", "function": "app::q", "calls": 3,
                 "errors": 0, "rows_returned": 3, "rows_affected": 0, "latency": lock(3)["wait"],
                 "total_percent": 100.0}]},
            "functions_alloc": {"mode": "exclusive", "process_alloc_bytes": 9000, "process_allocs": 90,
                "total_functions": 1, "rows": [
                {"name": "app::parse", "file": "g.rs", "line": 3, "is_async": false, "calls": 10,
                 "bytes_total": 480, "bytes_avg": 48, "bytes_max": 96, "bytes_percentiles": {"p50": 48, "p99.9": 96},
                 "allocs_total": 10, "allocs_avg": 1, "allocs_max": 2, "allocs_percentiles": {"p50": 1, "p99.9": 2}}]},
            "functions_icount": {"tool": "callgrind", "dump_file": "cg.out", "program_ir": 99999,
                "total_functions": 1, "uncounted": [], "rows": [
                {"name": "app::parse", "file": "g.rs", "line": 3, "is_async": true, "calls": 10, "polls": 20,
                 "ir": 5000, "ir_per_call": 500, "self_ir": 4000}]}
        })
    }

    fn status() -> Value {
        json!({"status_1xx": 0, "status_2xx": 6, "status_3xx": 0, "status_4xx": 1, "status_5xx": 1})
    }

    /// One I/O direction that moved `bytes` (none: nothing timed, no rate).
    fn transfer(bytes: u64) -> Value {
        let ops = bytes / 512;
        let mut t = json!({"ops": ops, "bytes": bytes, "errors": 0, "timed_ops": ops, "timed_bytes": bytes,
            "timed_ns": ops * 300, "avg_ns": 300, "min_ns": 200, "max_ns": 700,
            "percentiles_ns": {"p50": 290, "p99.9": 650}});
        if bytes > 0 {
            t["bytes_per_sec"] = json!(bytes * 1_000_000_000 / (ops * 300));
        }
        t
    }

    fn generic(key: &str, value: &Value, limit: usize) -> Section {
        let text = value.to_string();
        let mut de = serde_json::Deserializer::from_str(&text);
        SectionSeed { key, limit }.deserialize(&mut de).unwrap().unwrap()
    }

    /// A metric as `(key, label, unit, value)`.
    type Listed = (String, String, Unit, f64);

    /// Every row's metrics, in order.
    fn listing(s: &Section) -> Vec<(String, Vec<Listed>)> {
        let row = |values: &[(u32, f64)]| {
            values
                .iter()
                .map(|(m, v)| (s.info(*m).key.clone(), s.info(*m).label.clone(), s.info(*m).unit, *v))
                .collect()
        };
        s.rows.iter().map(|(name, values)| (name.clone(), row(values))).collect()
    }

    #[test]
    fn typed_rows_give_what_the_generic_reader_gave_the_same_json() {
        let value = report();
        let typed: Report = serde_json::from_value(value.clone()).unwrap();
        let mut samples = RunSamples::default();
        add(&mut samples, &typed, |_| true);
        for key in KEYS {
            let from_types = &samples.sections[key];
            let from_json = generic(key, &value[key], 2);
            assert!(!listing(from_types)[0].1.is_empty(), "{key}");
            assert_eq!(listing(from_types), listing(&from_json), "{key}");
            assert_eq!(from_types.truncated, from_json.truncated, "{key}");
        }
        assert!(samples.sections["mutexes"].truncated, "two rows at a limit of two may have been cut");
        assert!(!samples.sections["rw_locks"].truncated);
        let config = listing(&samples.sections["rw_locks"]);
        let p999 = config[0].1.iter().find(|m| m.0 == "writes.hold.percentiles_ns.p99.9").unwrap();
        assert_eq!((p999.2, p999.3), (Unit::Nanoseconds, 80.0));
    }

    #[test]
    fn sections_the_table_does_not_compare_are_left_out() {
        let typed: Report = serde_json::from_value(report()).unwrap();
        let mut samples = RunSamples::default();
        add(&mut samples, &typed, |key| key != "rw_locks");
        let kept: Vec<&str> = samples.sections.keys().map(String::as_str).collect();
        let compared: Vec<&str> =
            SECTIONS.iter().map(|d| d.key).filter(|k| KEYS.contains(k) && *k != "rw_locks").collect();
        assert_eq!(kept, compared, "every typed section but rw_locks, in the model's order");
    }
}
