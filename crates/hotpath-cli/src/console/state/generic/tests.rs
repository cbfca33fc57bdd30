use std::time::{Duration, Instant};

use hotpath_model::{Section, Unit};
use serde_json::json;

use super::*;
use crate::console::state::build;
use crate::console::state::fields::row_lists;

/// The table of a section named `name`; a name that is no section (a made-up one) is
/// shown as a section without a view of its own would be.
fn table(name: &str, section: &Value, list: Option<&str>, history: &History) -> Table {
    let of = name.parse::<Section>().unwrap_or(Section::Debug);
    build::table(of, section, list, &json!({}), history).unwrap()
}

#[test]
fn generic_sections_become_tables() {
    let section = json!({"rss_bytes": 1, "rows": [
        {"name": "worker-1", "tid": 8, "is_main": false, "cpu_percent": 98.2, "alloc_bytes": 12697, "status": "Running", "cpu_user_ns": 5, "file": "x.rs"},
        {"name": "main", "tid": 7, "is_main": true, "cpu_percent": 6.3, "alloc_bytes": 367800, "status": "Sleeping", "cpu_user_ns": 7, "file": "y.rs"}
    ]});
    let t = table("threads", &section, None, &History::default());
    let titles: Vec<&str> = t.columns.iter().map(|c| c.title.as_str()).collect();
    // No count (tid identifies): CPU time per second, as load, is the rate column.
    assert_eq!(titles, ["Name", "CPU user load", "TID", "CPU %", "Alloc bytes", "Status", "CPU user"]);
    assert_eq!((t.counter.as_deref(), t.counter_kind), (Some("cpu_user_ns"), Kind::Busy));
    assert_eq!(t.columns[2].kind, Kind::Id);
    assert_eq!(t.columns[4].kind, Kind::Unit(Unit::Bytes));
    assert_eq!(t.rows[0].cells[6].show(t.columns[6].kind), "5 ns");
    assert_eq!(t.rows[0].cells[2].show(t.columns[2].kind), "8");
    assert_eq!((t.rows[0].key.as_str(), t.rows[0].name.as_str()), ("tid 8", "worker-1"));
    let mut sorted = t.clone();
    sorted.sort(3, false);
    assert_eq!(sorted.rows[0].name, "main");
    sorted.sort(3, true);
    assert_eq!(sorted.rows[0].name, "worker-1");
}

#[test]
fn threads_of_one_name_show_their_own_load() {
    let threads = |a: u64, b: u64| {
        json!({"rows": [{"name": "tokio-runtime-worker", "tid": 11, "cpu_user_ns": a},
                        {"name": "tokio-runtime-worker", "tid": 12, "cpu_user_ns": b}]})
    };
    let mut history = History::default();
    let t0 = Instant::now();
    history.record(&json!({"threads": threads(0, 0)}), t0);
    history.record(&json!({"threads": threads(80_000_000, 0)}), t0 + Duration::from_secs(1));
    let t = table("threads", &threads(80_000_000, 0), None, &history);
    let loads: Vec<String> = t.rows.iter().map(|r| r.cells[1].show(Kind::Busy)).collect();
    assert_eq!(loads, ["8.0%", "0.0%"]);
}

#[test]
fn nested_fields_are_flattened_with_their_units() {
    let section = json!({"rows": [{"name": "state", "kind": "std", "instances": 2,
        "lock": {"acquisitions": 40, "contended": 3, "wait": {"count": 40, "avg_ns": 1500, "percentiles_ns": {"p50": 900}}}}]});
    let t = table("mutexes", &section, None, &History::default());
    let columns: Vec<(&str, &str, Kind)> =
        t.columns.iter().map(|c| (c.key.as_str(), c.title.as_str(), c.kind)).collect();
    assert_eq!(columns[1], ("lock.acquisitions/s", "Lock acquisitions/s", Kind::Unit(Unit::PerSecond)));
    let ns = Kind::Unit(Unit::Nanoseconds);
    assert!(columns.contains(&("lock.wait.avg_ns", "Lock wait avg", ns)), "{columns:?}");
    assert!(columns.contains(&("lock.wait.percentiles_ns.p50", "Lock wait P50", ns)), "{columns:?}");
    assert!(columns.contains(&("instances", "Instances", Kind::Unit(Unit::Count))));
}

#[test]
fn lists_and_field_sections() {
    let section = json!({"reads": [{"label": "file", "operations": 4, "bytes": 10}], "writes": []});
    assert_eq!(row_lists(&section), ["reads", "writes"]);
    let t = table("io", &section, Some("reads"), &History::default());
    assert_eq!(t.counter.as_deref(), Some("operations"));
    assert_eq!(t.columns[1].title, "Operations/s");
    assert_eq!(t.rows[0].cells[1], Cell::Empty, "no rate before two polls");
    let runtime =
        json!({"workers": 4, "busy_ns": 1_500_000, "queues": {"global_depth": 3}, "items_per_sec": 16_305_862.0});
    let t = table("gauges", &runtime, None, &History::default());
    let shown: Vec<(String, String)> = t.rows.iter().map(|r| (r.name.clone(), r.cells[1].show(Kind::Text))).collect();
    assert_eq!(shown[1], ("Busy".to_string(), "1.50 ms".to_string()));
    assert_eq!(shown[2], ("Queues global depth".to_string(), "3".to_string()));
    assert_eq!(shown[3], ("Items/sec".to_string(), "16.31 M/s".to_string()));
}

#[test]
fn server_rows_lead_with_requests_and_latency() {
    let latency =
        json!({"count": 8, "total_ns": 800, "avg_ns": 100, "max_ns": 300, "percentiles_ns": {"p50": 90, "p99": 290}});
    let section = json!({"rows": [{"name": "GET /users/{id}", "method": "GET", "route": "/users/{id}", "matched": true,
        "requests": 8, "cancelled": 0, "status": {"status_1xx": 0, "status_2xx": 7, "status_3xx": 0, "status_4xx": 1, "status_5xx": 0},
        "in_flight": 0, "in_flight_max": 2, "latency": latency, "scope": {"requests": 8, "sql_queries": 8, "sql_ns": 960}}]});
    let t = table("server", &section, None, &History::default());
    let titles: Vec<&str> = t.columns.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        titles[..9],
        [
            "Name",
            "Requests/s",
            "Requests",
            "Latency avg",
            "Latency P50",
            "Latency P99",
            "Latency max",
            "Latency total",
            "Latency count"
        ],
        "{titles:?}"
    );
    assert!(titles.contains(&"Status 2xx") && !titles.iter().any(|t| t.contains("Status status")), "{titles:?}");
    // The rest keeps the JSON's order.
    let rest = &titles[9..];
    assert_eq!(rest[..3], ["Method", "Route", "Cancelled"], "{titles:?}");
}
