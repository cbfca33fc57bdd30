//! Rendered buffers of the Data flow tab's warning: a wrapped lock or channel reached
//! through `Deref` (its row's `derefs`) is named above the tab's tables, with the fix.

use serde_json::json;

use super::tests::{app_with, screen};
use crate::console::state::Action;

#[test]
fn the_data_flow_tab_flags_wrappers_reached_through_deref() {
    let lock = json!({"acquisitions": 2, "contended": 0});
    let extra = json!({"mutexes": {"total_mutexes": 2, "rows": [
        {"name": "total", "kind": "std", "data_type": "u64", "instances": 1, "lock": lock, "derefs": 47},
        {"name": "clean", "kind": "std", "data_type": "u64", "instances": 1, "lock": lock, "derefs": 0}]}});
    let mut app = app_with(extra);
    app.handle(Action::Tab(1));
    let text = screen(&mut app, 160, 30);
    assert!(text.contains("⚠ Reached through Deref, operations unmeasured: mutexes total (47×)."), "{text}");
    assert!(text.contains("Fix: take hotpath::wrap::… types"), "{text}");
    assert!(!text.contains("mutexes clean"), "{text}");
    let mut clean = app_with(json!({"mutexes": {"total_mutexes": 1, "rows": [
        {"name": "clean", "kind": "std", "data_type": "u64", "instances": 1, "lock": lock, "derefs": 0}]}}));
    clean.handle(Action::Tab(1));
    assert!(!screen(&mut clean, 160, 30).contains("Deref"));
}
