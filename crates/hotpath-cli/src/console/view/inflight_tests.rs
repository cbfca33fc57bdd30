//! Rendered buffers of the functions view with calls in flight (Active and Oldest
//! columns, rows without completed calls) and with a mean above its highest
//! percentile (the note on the summary line).

use serde_json::json;

use super::tests::{app_with, screen};

#[test]
fn calls_in_flight_show_active_and_oldest() {
    let running = json!({"name": "app::serve", "file": "src/main.rs", "line": 9, "is_async": true, "calls": 0,
        "active": 4, "oldest_active_ns": 2_200_000_000u64, "cancelled": 0, "polls": 12, "busy_ns": 5_000,
        "total_ns": 0, "self_ns": 5_000, "avg_ns": 0, "min_ns": 0, "max_ns": 0, "percentiles_ns": {"p50": 0, "p99": 0}});
    let done = json!({"name": "app::load", "file": "src/main.rs", "line": 3, "is_async": false, "calls": 3,
        "cancelled": 0, "polls": 0, "busy_ns": 0, "total_ns": 9_000_000, "self_ns": 9_000_000, "avg_ns": 3_000_000,
        "min_ns": 2_000_000, "max_ns": 4_000_000, "percentiles_ns": {"p50": 3_000_000, "p99": 4_000_000}});
    let mut app = app_with(json!({"functions_timing": {"total_functions": 2, "rows": [done, running]}}));
    let text = screen(&mut app, 200, 30);
    let header = text.lines().find(|l| l.contains("Calls/s")).unwrap_or_else(|| panic!("{text}"));
    assert!(header.contains("Active") && header.contains("Oldest"), "{header}");
    let serve = text.lines().find(|l| l.contains("app::serve") && l.contains('│')).unwrap_or_else(|| panic!("{text}"));
    assert!(serve.contains(" 4 ") && serve.contains("2.20 s"), "{serve}");
    assert!(!serve.contains("0 ns"), "no durations before a call completes: {serve}");
}

#[test]
fn a_mean_above_the_highest_percentile_is_noted() {
    let skewed = json!({"name": "app::parse_line", "file": "src/main.rs", "line": 5, "is_async": false,
        "calls": 1000, "cancelled": 0, "polls": 0, "busy_ns": 0, "total_ns": 647_000, "self_ns": 647_000,
        "avg_ns": 647, "min_ns": 100, "max_ns": 290_000, "percentiles_ns": {"p50": 300, "p99": 352}});
    let mut app = app_with(json!({"functions_timing": {"total_functions": 1, "rows": [skewed]}}));
    let text = screen(&mut app, 200, 30);
    assert!(
        text.contains("Avg above P99, a few slow calls dominate the mean: app::parse_line (max 290.00 µs)"),
        "{text}"
    );
    let header = text.lines().find(|l| l.contains("Calls/s")).unwrap();
    assert!(!header.contains("Active"), "no in-flight columns without calls in flight: {header}");
}
