//! Rendered buffers of the logs pane for the rows that log every execution or request
//! (SQL, HTTP client, server): what the detail pane of a server row shows.

use std::time::Instant;

use serde_json::json;

use super::tests::{app_with, screen};
use crate::console::client::Update;
use crate::console::state::Action;

#[test]
fn a_server_rows_detail_pane_fetches_and_shows_its_requests() {
    let latency = json!({"count": 8, "total_ns": 8_000_000, "avg_ns": 1_000_000, "max_ns": 3_000_000,
        "percentiles_ns": {"p50": 900_000, "p99": 2_900_000}});
    let extra = json!({
        "server": {"total_routes": 1, "requests": 8, "route_scope": false, "rows": [{
            "name": "GET /users/{id}", "method": "GET", "route": "/users/{id}", "matched": true, "requests": 8,
            "cancelled": 0, "status": {"status_1xx": 0, "status_2xx": 7, "status_3xx": 0, "status_4xx": 1,
            "status_5xx": 0}, "in_flight": 0, "in_flight_max": 2, "latency": latency}]},
        "debug": {"total_rows": 0, "logs_limit": 50, "max_log_len": 1536, "entries_limit": 1000, "rows": [],
            "logged": [{"section": "server", "name": "GET /users/{id}", "total": 8, "kept": 8,
            "value": "status=404 duration_ns=900000 route=GET /users/{id} path=/users/999", "last_at_ns": 9}]}
    });
    let mut app = app_with(extra);
    let services = hotpath_model::Tab::ALL.iter().position(|t| *t == hotpath_model::Tab::Services).unwrap();
    app.handle(Action::Tab(services));
    let text = screen(&mut app, 160, 40);
    assert!(text.contains("fetching…"), "{text}");
    // The route's `/`, `{`, `}` and space are percent-encoded in the path.
    let path = app.logs.wanted().get().expect("the selected server row's logs are wanted");
    assert_eq!(path, "/server/GET%20%2Fusers%2F%7Bid%7D/logs?limit=200");
    let logs = json!({"section": "server", "name": "GET /users/{id}", "total": 8, "logs": [
        {"seq": 8, "at_ns": 2_000_000_000u64, "thread": "tokio-runtime-worker",
         "value": "status=404 duration_ns=900000 route=GET /users/{id} path=/users/999"},
        {"seq": 7, "at_ns": 1_000_000_000u64, "thread": "tokio-runtime-worker",
         "value": "status=200 duration_ns=700000 route=GET /users/{id} path=/users/3"}]});
    app.apply(Update::Logs { path, logs: Ok(logs) }, Instant::now());
    let text = screen(&mut app, 160, 40);
    assert!(text.contains("Logs: 2 kept of 8"), "{text}");
    let (newest, older) = (text.find("path=/users/999"), text.find("path=/users/3"));
    assert!(newest.is_some() && older.is_some() && newest < older, "newest first: {text}");
}
