//! Rendered buffers of the screens (ratatui's TestBackend): what a user sees for
//! typed and generic sections, missing sections, a lost server, pause and help.

use std::time::{Duration, Instant};

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use serde_json::{json, Value};

use super::draw;
use crate::console::client::Update;
use crate::console::state::{Action, App};

fn screen(app: &mut App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| draw(frame, app)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..height).map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect::<String>() + "\n").collect()
}

fn status(sections: &[&str]) -> Value {
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

fn report(calls: u64, extra: Value) -> Value {
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

fn app_with(extra: Value) -> App {
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
    assert!(text.contains("calls per second: now 100/s"), "sparkline title: {text}");
    assert!(text.contains("file: src/main.rs") && text.contains("percentiles_ns.p99: 4.00 µs"), "detail pane: {text}");
    assert!(text.contains("● 127.0.0.1:6770") && text.contains("app::main pid 42 up 3s"), "{text}");
}

#[test]
fn sorting_moves_rows_and_marks_the_column() {
    let mut app = app_with(json!({}));
    app.handle(Action::SortNext); // Calls, largest first
    let text = screen(&mut app, 140, 30);
    assert!(text.contains("Calls ▼"), "{text}");
    let order: Vec<usize> = ["app::parse", "app::load"].iter().map(|n| text.find(&format!(" {n} ")).unwrap()).collect();
    assert!(order[0] < order[1], "parse (300 calls) above load (3):\n{text}");
    app.handle(Action::SortReverse);
    let text = screen(&mut app, 140, 30);
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
        {"name": "main", "tid": 7, "status": "Sleeping", "cpu_pct": 6.3, "user_ns": 123_000_000, "alloc_bytes": 376_627},
        {"name": "worker-1", "tid": 8, "status": "Running", "cpu_pct": 98.2, "user_ns": 1_842_000_000, "alloc_bytes": 12_697}
    ]}});
    let mut app = app_with(threads);
    app.handle(Action::Tab(3));
    let text = screen(&mut app, 140, 24);
    assert!(text.contains("rss bytes: 7.8 MB"), "summary line: {text}");
    let header = text.lines().find(|l| l.contains("Name")).unwrap();
    for column in ["Tid", "Status", "Cpu", "User", "Alloc bytes"] {
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
fn narrow_tables_drop_whole_columns() {
    let mut app = app_with(json!({}));
    let text = screen(&mut app, 70, 20);
    let header = text.lines().find(|l| l.contains("│  Function")).unwrap();
    assert!(header.contains("Calls") && !header.contains("Self"), "{header}");
    assert!(text.contains("more columns in the detail pane"), "{text}");
    // Every shown title is whole (ratatui would otherwise squeeze them).
    for title in header.split_whitespace().filter(|w| w.chars().all(char::is_alphanumeric)) {
        assert!(
            ["Function", "Calls", "Calls/s", "Avg", "P50", "P99", "Total", "%"].contains(&title),
            "{title} in {header}"
        );
    }
}

#[test]
fn a_section_of_fields_is_a_field_table() {
    let mut app = app_with(json!({"tokio_runtime": {"workers": 4, "global_queue_depth": 12, "busy_ns": 2_500_000}}));
    app.handle(Action::Tab(4));
    let text = screen(&mut app, 120, 20);
    let row = |name: &str| text.lines().find(|l| l.contains(&format!(" {name} "))).unwrap_or_else(|| panic!("{text}"));
    assert!(row("global_queue_depth").contains(" 12 "), "{text}");
    assert!(row("busy_ns").contains("2.50 ms"), "{text}");
    assert!(text.contains("Field") && text.contains("Value"));
}

#[test]
fn nested_lists_are_listed_in_the_detail_pane() {
    let runtime = json!({"tokio_runtime": {"interval_ms": 1000, "runtimes": [{"name": "api", "num_workers": 2,
        "spawned_tasks": 10, "workers": [{"index": 0, "busy_ns": 1_000_000, "parks": 3}, {"index": 1, "busy_ns": 0, "parks": 9}]}]}});
    let mut app = app_with(runtime);
    app.handle(Action::Tab(4));
    let text = screen(&mut app, 150, 24);
    assert!(
        text.contains("workers[0]: index 0, busy ns 1.00 ms, parks 3")
            || text.contains("workers[0]: index 0, busy_ns 1.00 ms, parks 3"),
        "{text}"
    );
    assert!(text.contains("workers[1]: index 1"), "{text}");
    assert!(text.contains("Spawned tasks/s"), "{text}");
}
