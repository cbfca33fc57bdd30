//! Rendered buffers of the screens (ratatui's TestBackend): what a user sees for
//! typed and generic sections, missing sections, a lost server, pause and help.

use std::time::{Duration, Instant};

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use serde_json::{json, Value};

use super::draw;
use crate::console::client::Update;
use crate::console::state::{Action, App};

pub(super) fn screen(app: &mut App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| draw(frame, app)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..height).map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect::<String>() + "\n").collect()
}

pub(super) fn status(sections: &[&str]) -> Value {
    json!({
        "caller": "app::main", "pid": 42, "uptime_ns": 3_000_000_000u64,
        "sections": sections,
        "unavailable": {"functions_alloc": "allocation profiling is off (hotpath-alloc feature)", "channels": "no channel! wrapper was used yet"}
    })
}

fn timing_row(name: &str, calls: u64, total: u64) -> Value {
    json!({"name": name, "file": "src/main.rs", "line": 3, "is_async": false, "calls": calls, "cancelled": 0,
           "polls": 0, "busy_ns": 0, "total_ns": total, "self_ns": total / 2, "avg_ns": total / calls.max(1),
           "min_ns": 1, "max_ns": total, "percentiles_ns": {"p50": 900, "p99": 4000}})
}

pub(super) fn report(calls: u64, extra: Value) -> Value {
    let mut r = json!({
        "schema_version": 1,
        "meta": {"caller": "app::main", "pid": 42, "wall_ns": 1_000_000_000u64, "percentiles": [50.0, 99.0], "limit": 0},
        "functions_timing": {"total_functions": 2, "rows": [timing_row("app::parse", calls, 2_000_000), timing_row("app::load", 3, 9_000_000)]}
    });
    for (k, v) in extra.as_object().into_iter().flatten() {
        r[k] = v.clone();
    }
    r
}

pub(super) fn app_with(extra: Value) -> App {
    let mut app = App::new("127.0.0.1:6770".into(), Duration::from_millis(500));
    let t0 = Instant::now();
    app.apply(Update::Data { status: status(&["functions_timing"]), report: report(100, extra.clone()) }, t0);
    app.apply(
        Update::Data { status: status(&["functions_timing"]), report: report(300, extra) },
        t0 + Duration::from_secs(2),
    );
    app
}

#[test]
fn functions_timing_table_with_rates_and_detail() {
    let mut app = app_with(json!({}));
    let text = screen(&mut app, 140, 30);
    assert!(text.contains(" 1 Functions ") && text.contains(" Timing ") && text.contains(" Allocations "), "{text}");
    let header = text.lines().find(|l| l.contains("Calls/s")).unwrap();
    for column in ["Calls", "Calls/s", "Avg", "P50", "P99", "Total", "% Total", "Self"] {
        assert!(header.contains(column), "{column} in {header}");
    }
    let parse = text.lines().find(|l| l.contains("▶ app::parse")).unwrap_or_else(|| panic!("{text}"));
    assert!(parse.contains("300") && parse.contains("100.0/s") && parse.contains("2.00 ms"), "{parse}");
    assert!(text.contains("Calls per second: now 100/s"), "sparkline title: {text}");
    // Labels, not JSON keys, in the detail pane.
    assert!(text.contains("File: src/main.rs") && text.contains("P99: 4.00 µs"), "detail pane: {text}");
    assert!(!text.contains("percentiles_ns"), "{text}");
    assert!(text.contains("● 127.0.0.1:6770") && text.contains("app::main pid 42 up 3s"), "{text}");
}

#[test]
fn sorting_moves_rows_and_marks_the_column() {
    let mut app = app_with(json!({}));
    app.handle(Action::SortNext); // Calls, largest first
                                  // From the table's header on (the summary line may name rows too).
    let table = |text: String| text[text.find("│  Function").unwrap()..].to_string();
    let text = table(screen(&mut app, 140, 30));
    assert!(text.contains("Calls ▼"), "{text}");
    let order: Vec<usize> = ["app::parse", "app::load"].iter().map(|n| text.find(&format!(" {n} ")).unwrap()).collect();
    assert!(order[0] < order[1], "parse (300 calls) above load (3):\n{text}");
    app.handle(Action::SortReverse);
    let text = table(screen(&mut app, 140, 30));
    assert!(text.contains("Calls ▲"));
    assert!(text.find(" app::load ").unwrap() < text.find(" app::parse ").unwrap(), "{text}");
    // The selection follows its row, not its position.
    app.handle(Action::Down);
    assert!(screen(&mut app, 140, 30).contains("▶ app::parse"));
}

#[test]
fn missing_sections_say_why() {
    let mut app = app_with(json!({}));
    app.handle(Action::NextView);
    let text = screen(&mut app, 120, 20);
    assert!(text.contains("no data: allocation profiling is off (hotpath-alloc feature)"), "{text}");
    app.handle(Action::Tab(1));
    assert!(screen(&mut app, 120, 20).contains("no data: no channel! wrapper was used yet"));
    app.handle(Action::Tab(4));
    assert!(screen(&mut app, 120, 20).contains("no data: the server does not serve tokio_runtime"));
}

#[test]
fn a_new_section_lights_up_generically() {
    let threads = json!({"threads": {"rss_bytes": 8_178_892, "rows": [
        {"name": "main", "tid": 7, "status": "Sleeping", "cpu_percent": 6.3, "user_ns": 123_000_000, "alloc_bytes": 376_627},
        {"name": "worker-1", "tid": 8, "status": "Running", "cpu_percent": 98.2, "user_ns": 1_842_000_000, "alloc_bytes": 12_697}
    ]}});
    let mut app = app_with(threads);
    app.handle(Action::Tab(3));
    let text = screen(&mut app, 140, 24);
    assert!(text.contains("RSS bytes: 7.8 MB"), "summary line: {text}");
    let header = text.lines().find(|l| l.contains("Name")).unwrap();
    for column in ["TID", "Status", "CPU %", "User", "Alloc bytes"] {
        assert!(header.contains(column), "{column} in {header}");
    }
    let worker = text.lines().find(|l| l.contains(" worker-1 ")).unwrap();
    assert!(
        worker.contains("Running")
            && worker.contains("98.2%")
            && worker.contains("1.84 s")
            && worker.contains("12.4 KB")
    );
}

#[test]
fn channels_show_their_flow() {
    let channels = |sent: u64, received: u64| json!({"channels": {"rows": [{"name": "jobs", "sent_count": sent, "received_count": received, "queue_size": sent - received}]}});
    let mut app = App::new("127.0.0.1:6770".into(), Duration::from_millis(500));
    let t0 = Instant::now();
    app.apply(Update::Data { status: status(&[]), report: report(1, channels(100, 90)) }, t0);
    app.apply(Update::Data { status: status(&[]), report: report(1, channels(300, 250)) }, t0 + Duration::from_secs(1));
    app.handle(Action::Tab(1));
    let text = screen(&mut app, 140, 24);
    assert!(text.contains("sender ──▶ [ queue 50 ] ──▶ receiver"), "{text}");
    assert!(text.contains("sent 200.0/s (300)   received 160.0/s (250)"), "{text}");
    assert!(text.contains("Sent count/s"), "rate column of the main counter: {text}");
}

#[test]
fn a_lost_server_keeps_the_last_data_and_says_so() {
    let mut app = app_with(json!({}));
    app.apply(Update::Failed("cannot reach http://127.0.0.1:6770: connection refused".into()), Instant::now());
    let text = screen(&mut app, 140, 20);
    assert!(text.contains("○ cannot reach http://127.0.0.1:6770: connection refused; retrying"), "{text}");
    assert!(text.contains("(last data shown)") && text.contains("app::parse"), "{text}");
    let mut fresh = App::new("127.0.0.1:6770".into(), Duration::from_millis(500));
    fresh.apply(Update::Failed("connection refused".into()), Instant::now());
    assert!(screen(&mut fresh, 100, 12).contains("no data: waiting for the server (connection refused)"));
}

#[test]
fn pause_freezes_the_view() {
    let mut app = app_with(json!({}));
    app.handle(Action::TogglePause);
    app.apply(Update::Data { status: status(&[]), report: report(999_999, json!({})) }, Instant::now());
    let text = screen(&mut app, 140, 20);
    assert!(text.contains("PAUSED (p resumes)"), "{text}");
    assert!(!text.contains("999,999"), "paused data is not applied: {text}");
    app.handle(Action::TogglePause);
    app.apply(Update::Data { status: status(&[]), report: report(999_999, json!({})) }, Instant::now());
    assert!(screen(&mut app, 140, 20).contains("999,999"));
}

#[test]
fn help_opens_and_closes() {
    let mut app = app_with(json!({}));
    app.handle(Action::ToggleHelp);
    assert!(screen(&mut app, 120, 30).contains("switch view inside a tab"));
    app.handle(Action::ToggleHelp);
    assert!(!screen(&mut app, 120, 30).contains("switch view inside a tab"));
}

#[test]
fn small_terminals_do_not_panic() {
    let mut app = app_with(json!({}));
    for (w, h) in [(1, 1), (20, 5), (60, 8)] {
        screen(&mut app, w, h);
    }
}

#[test]
fn narrow_tables_drop_whole_columns_and_scroll_to_them() {
    let mut app = app_with(json!({}));
    let text = screen(&mut app, 70, 20);
    let header = text.lines().find(|l| l.contains("│  Function")).unwrap();
    assert!(header.contains("Calls") && !header.contains("Self"), "{header}");
    assert!(text.contains("1 more columns: > shows them"), "{text}");
    // Every shown title is whole (ratatui would otherwise squeeze them).
    for title in header.split_whitespace().filter(|w| w.chars().all(char::is_alphanumeric)) {
        assert!(
            ["Function", "Calls", "Calls/s", "Avg", "P50", "P99", "Total", "%", "Self"].contains(&title),
            "{title} in {header}"
        );
    }
    app.handle(Action::ScrollRight);
    let text = screen(&mut app, 70, 20);
    let header = text.lines().find(|l| l.contains("│  Function")).unwrap();
    assert!(header.contains("Self") && !header.contains("Calls "), "scrolled one column: {header}");
    assert!(text.contains("▶ app::parse"), "the name column stays: {text}");
    // Scrolling stops at the last column; back left shows Calls again.
    for _ in 0..20 {
        app.handle(Action::ScrollRight);
    }
    assert!(screen(&mut app, 70, 20).lines().any(|l| l.contains("│  Function") && l.contains("Self")));
    for _ in 0..20 {
        app.handle(Action::ScrollLeft);
    }
    let text = screen(&mut app, 70, 20);
    assert!(text.lines().find(|l| l.contains("│  Function")).unwrap().contains("Calls "), "{text}");
}

#[test]
fn wide_tables_keep_whole_columns_and_scroll_to_the_rest() {
    let long = json!({"functions_alloc": {"total_functions": 1, "rows": [{"name": "app::a_rather_long_module_path::with_a_long_function_name", "file": "a.rs", "line": 1,
        "calls": 1000, "bytes_total": 48000, "bytes_avg": 48, "bytes_max": 96, "bytes_percentiles": {"p50": 48, "p95": 48, "p99.9": 96},
        "allocs_total": 1000, "allocs_avg": 1, "allocs_max": 2, "allocs_percentiles": {"p50": 1, "p95": 1, "p99.9": 2}, "bytes_self_percent": 12.5}]}});
    let mut app = app_with(long);
    app.handle(Action::NextView);
    let header =
        |text: &str| text.lines().find(|l| l.contains("│  Name")).unwrap_or_else(|| panic!("{text}")).to_string();
    let text = screen(&mut app, 200, 30);
    let titles = header(&text);
    assert!(titles.contains("Bytes P50") && !titles.contains("Bytes self %"), "{titles}");
    assert!(text.contains("more columns: > shows them"), "{text}");
    assert!(text.contains("▶ app::a_rather_long_mod… "), "a long name is shortened: {text}");
    // Every title is whole: the titles shown and the ones counted as more make up all of them.
    let all = [
        "Name",
        "Calls/s",
        "Calls",
        "Bytes total",
        "Bytes avg",
        "Bytes max",
        "Bytes P50",
        "Bytes P95",
        "Bytes P99.9",
        "Allocs total",
        "Allocs avg",
        "Allocs max",
        "Allocs P50",
        "Allocs P95",
        "Allocs P99.9",
        "Bytes self %",
    ];
    let whole = |t: &str| {
        let at = format!(" {t}");
        titles.match_indices(&at).any(|(i, _)| titles[i + at.len()..].starts_with([' ', '│']))
    };
    let shown = all.iter().filter(|t| whole(t)).count();
    let more: usize = text.split(" more columns").next().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
    assert_eq!(shown + more, all.len(), "{titles}");
    for _ in 0..8 {
        app.handle(Action::ScrollRight);
    }
    let titles = header(&screen(&mut app, 200, 30));
    assert!(titles.contains("Bytes self %") && !titles.contains("Calls/s"), "{titles}");
}

#[test]
fn a_section_of_fields_is_a_field_table() {
    let mut app = app_with(json!({"gauges": {"workers": 4, "global_queue_depth": 12, "busy_ns": 2_500_000}}));
    app.handle(Action::Tab(4));
    let text = screen(&mut app, 120, 20);
    assert!(text.contains("no data"), "the Tokio tab reads tokio_runtime only: {text}");
}

fn tokio_runtime(busy: u64, polls: u64) -> Value {
    let worker = |index: u64, busy_ns: u64, percent: f64, polls: u64| {
        json!({"index": index, "busy_ns": busy_ns, "busy_percent": percent, "parks": 3, "polls": polls, "steals": 1,
               "steal_operations": 1, "overflows": 0, "local_queue_depth": 2, "max_local_queue_depth": 5,
               "mean_poll_ns": 280_000, "longest_stall_ns": 0, "stalls": 0})
    };
    let history: Vec<Value> = (0..128)
        .map(|i| json!({"at_ms": i * 20, "global_queue_depth": i % 7, "alive_tasks": 2, "busy_percent": 50.0}))
        .collect();
    json!({"tokio_runtime": {"interval_ms": 20, "tokio_unstable": true, "total_runtimes": 1, "runtimes": [{
        "name": "api", "file": "src/main.rs", "line": 12, "flavor": "multi_thread", "monitored_ns": 2_000_000_000u64,
        "samples": 100, "num_workers": 2, "alive_tasks": 2, "max_alive_tasks": 3, "global_queue_depth": 4,
        "max_global_queue_depth": 9, "blocking_threads": 1, "idle_blocking_threads": 0, "blocking_queue_depth": 0,
        "max_blocking_queue_depth": 0, "spawned_tasks": 3, "remote_schedules": 0, "budget_forced_yields": 0,
        "flags": [{"kind": "imbalance", "workers": [0, 1], "at_ns": 1_000_000, "message": "worker 0 did 90% of the work"}],
        "workers": [worker(0, busy, 98.3, polls), worker(1, 0, 0.5, 7)], "history": history}]}})
}

#[test]
fn the_tokio_tab_shows_workers_queues_history_and_flags() {
    let mut app = App::new("127.0.0.1:6770".into(), Duration::from_millis(500));
    let t0 = Instant::now();
    app.apply(Update::Data { status: status(&[]), report: report(1, tokio_runtime(0, 100)) }, t0);
    app.apply(
        Update::Data { status: status(&[]), report: report(1, tokio_runtime(800_000_000, 1100)) },
        t0 + Duration::from_secs(1),
    );
    app.handle(Action::Tab(4));
    let text = screen(&mut app, 160, 40);
    assert!(text.contains("global queue 4 (max 9)") && text.contains("alive tasks 2 (max 3)"), "{text}");
    let header =
        text.lines().find(|l| l.contains("Worker") && l.contains("Busy now")).unwrap_or_else(|| panic!("{text}"));
    for column in ["Busy now", "Parks", "Polls/s", "Steals", "Local queue", "Longest stall", "Stalls"] {
        assert!(header.contains(column), "{column} in {header}");
    }
    let worker0 = text.lines().find(|l| l.contains("│0 ") || l.contains("│ 0 ")).unwrap_or_else(|| panic!("{text}"));
    assert!(worker0.contains("80.0%") && worker0.contains("98.3%") && worker0.contains("1.00 k/s"), "{worker0}");
    assert!(text.contains("Workers busy: now 50%") && text.contains("Global queue: now 1, max 6"), "{text}");
    assert!(text.contains("⚑ imbalance (workers 0, 1): worker 0 did 90% of the work"), "{text}");
    // The raw dump is gone: no history[n] or workers[n] lines.
    assert!(!text.contains("history[") && !text.contains("workers["), "{text}");
}

#[test]
fn every_tab_draws_and_switches_views() {
    let mut app = app_with(json!({}));
    for tab in 0..hotpath_model::Tab::ALL.len() {
        app.handle(Action::Tab(tab));
        app.handle(Action::NextView);
        app.handle(Action::PrevView);
        screen(&mut app, 120, 20);
    }
}

#[test]
fn the_debug_tab_shows_the_selected_trackers_history_and_logs() {
    let debug = json!({"debug": {"total_rows": 3, "logs_limit": 50, "max_log_len": 1536, "entries_limit": 1000, "rows": [
        {"kind": "dbg", "id": 0, "name": "x + 1", "file": "src/main.rs", "line": 4, "column": 5, "count": 2,
         "value": "8", "last_at_ns": 5, "thread": "main"},
        {"kind": "gauge", "id": 0, "name": "queue depth", "updates": 7, "current": 5.0, "min": 1.0, "max": 9.0,
         "last_at_ns": 9, "thread": "main", "file": "src/main.rs", "line": 9, "column": 5, "history": [1.0, 9.0, 5.0]}
    ]}});
    let mut app = app_with(debug);
    let debug_tab = hotpath_model::Tab::ALL.iter().position(|t| *t == hotpath_model::Tab::Debug).unwrap();
    app.handle(Action::Tab(debug_tab));
    app.handle(Action::Bottom);
    let text = screen(&mut app, 150, 40);
    assert!(text.contains("▶ queue depth") && text.contains("fetching…"), "{text}");
    assert!(text.contains("Last 3 values: now 5, low 1, high 9"), "gauge sparkline: {text}");
    // The poller is told which logs to fetch; its answer shows, newest first.
    let path = app.logs.wanted().get().expect("the selected gauge's logs are wanted");
    assert_eq!(path, "/debug/gauge/0/logs?limit=200");
    let logs = json!({"kind": "gauge", "id": 0, "name": "queue depth", "total": 7, "logs": [
        {"seq": 7, "at_ns": 2_500_000_000u64, "thread": "main", "op": "set", "operand": 5.0, "current": 5.0},
        {"seq": 6, "at_ns": 2_000_000_000u64, "thread": "worker", "op": "inc", "operand": 4.0, "current": 9.0}
    ]});
    app.apply(Update::Logs { path, logs: Ok(logs) }, Instant::now());
    let text = screen(&mut app, 150, 40);
    assert!(text.contains("Logs: 2 kept of 7"), "{text}");
    let newest = text.find("set 5 → 5").unwrap_or_else(|| panic!("{text}"));
    assert!(text.find("inc 4 → 9").is_some_and(|older| older > newest), "{text}");
    assert!(text.contains("2.500s") && text.contains("worker"), "{text}");
    // Another tab: nothing is fetched.
    app.handle(Action::Tab(0));
    screen(&mut app, 150, 40);
    assert_eq!(app.logs.wanted().get(), None);
}

#[test]
fn the_services_tab_shows_requests_and_latency_first() {
    let latency = json!({"count": 8, "total_ns": 8_000_000, "avg_ns": 1_000_000, "max_ns": 3_000_000,
        "percentiles_ns": {"p50": 900_000, "p99": 2_900_000}});
    let server = json!({"server": {"total_routes": 1, "requests": 8, "route_scope": true, "rows": [{
        "name": "GET /users/{id}", "method": "GET", "route": "/users/{id}", "matched": true, "requests": 8,
        "cancelled": 0, "status": {"status_1xx": 0, "status_2xx": 7, "status_3xx": 0, "status_4xx": 1, "status_5xx": 0},
        "in_flight": 0, "in_flight_max": 2, "latency": latency,
        "scope": {"requests": 8, "sql_queries": 8, "sql_ns": 960_000, "http_calls": 0, "http_ns": 0, "function_ns": 11_000}}]}});
    let mut app = app_with(server);
    app.handle(Action::Tab(5));
    let text = screen(&mut app, 120, 30);
    let header = text.lines().find(|l| l.contains("│  Name")).unwrap_or_else(|| panic!("{text}"));
    for title in ["Requests", "Latency avg", "Latency P50", "Latency P99"] {
        assert!(header.contains(title), "{title} in {header}");
    }
    assert!(!text.contains("Status status"), "{text}");
}

#[test]
fn a_logged_functions_detail_pane_shows_its_values() {
    let logged = json!({"debug": {"total_rows": 0, "logs_limit": 50, "max_log_len": 1536, "entries_limit": 1000,
        "rows": [], "logged": [{"section": "functions_timing", "name": "app::parse", "total": 300, "kept": 50,
        "value": "Ok(3)", "last_at_ns": 9}]}});
    let mut app = app_with(logged);
    let text = screen(&mut app, 150, 40);
    assert!(text.contains("▶ app::parse") && text.contains("fetching…"), "{text}");
    let path = app.logs.wanted().get().expect("the selected row's logs are wanted");
    assert_eq!(path, "/functions_timing/app::parse/logs?limit=200");
    let logs = json!({"section": "functions_timing", "name": "app::parse", "total": 300, "logs": [
        {"seq": 300, "at_ns": 1_500_000_000u64, "thread": "main", "value": "Ok(3)"},
        {"seq": 299, "at_ns": 1_000_000_000u64, "thread": "main", "value": "Err(\"odd\")"}]});
    app.apply(Update::Logs { path, logs: Ok(logs) }, Instant::now());
    let text = screen(&mut app, 150, 40);
    assert!(text.contains("Logs: 2 kept of 300") && text.contains("Calls per second"), "{text}");
    assert!(text.find("Ok(3)").unwrap() < text.find("Err(\"odd\")").unwrap(), "newest first: {text}");
    app.handle(Action::Bottom); // app::load logs nothing: no pane, nothing fetched
    let text = screen(&mut app, 150, 40);
    assert!(!text.contains("Logs") && app.logs.wanted().get().is_none(), "{text}");
}
