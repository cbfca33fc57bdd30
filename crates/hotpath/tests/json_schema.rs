//! A real report has exactly the fields of the pinned golden report
//! (crates/hotpath-model/tests/golden/report_v1.json), section by section.
#![cfg(feature = "hotpath")]

mod common;

use std::collections::BTreeSet;

use serde_json::Value;

use common::{command, json_report, run};

fn paths(value: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            let path = format!("{prefix}.{k}");
            out.insert(path.clone());
            paths(v, &path, out);
        }),
        Value::Array(items) => items.iter().for_each(|v| paths(v, &format!("{prefix}[]"), out)),
        _ => {}
    }
}

fn golden() -> Value {
    serde_json::from_str(include_str!("../../hotpath-model/tests/golden/report_v1.json")).unwrap()
}

/// Field paths of `value`, keeping those under the top-level keys `keep` accepts.
fn fields(value: &Value, keep: impl Fn(&str) -> bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    paths(value, "", &mut out);
    out.retain(|p| keep(p.trim_start_matches('.').split(['.', '[']).next().unwrap_or("")));
    out
}

#[test]
fn real_report_has_the_golden_fields() {
    let golden = golden();
    let out = run(command("case_exit_paths")
        .env("HOTPATH_OUTPUT_FORMAT", "json")
        .env("HOTPATH_PERCENTILES", "50,95,99.9")
        .env("HOTPATH_FOCUS", "/^case_/")
        .env("HOTPATH_LIMIT", "x"));
    let real = json_report(&out);
    // A second program fills the async and concurrency sections. Neither uses io! nor
    // the debug trackers: those sections are checked by the next tests.
    let flow = json_report(&run(command("case_flow")
        .env("HOTPATH_OUTPUT_FORMAT", "json")
        .env("HOTPATH_PERCENTILES", "50,95,99.9")));
    let others = |key: &str| key != "io" && key != "debug";
    let want = fields(&golden, others);
    let mut got = fields(&real, others);
    got.extend(fields(&flow, others));
    // Natively (no Callgrind) functions_icount is a note in place of counts; the golden
    // file shows a counted run (tests/icount_callgrind.rs runs one).
    got.remove(".functions_icount.note");
    // Fields the schema documents as absent until enough samples exist, and those of
    // features this build does not have. The scenarios are too short for CPU samples
    // (functions_cpu has no rows) and register no Tokio runtime (tests/tokio_runtime.rs
    // checks that section).
    let mut optional = vec![
        ".threads.rows[].cpu_percent",
        ".threads.rows[].max_cpu_percent",
        ".functions_cpu.rows[]",
        ".tokio_runtime",
        // Only backends that report their bound have it (std does not).
        ".channels.rows[].capacity",
        // Only with HOTPATH_REPORT_LABEL, time sampling, or a clock choice to explain.
        ".meta.label",
        ".meta.time_sampling",
        ".meta.clock_reason",
        ".functions_timing.rows[].timed_calls",
        // Only for calls still running when the report is built (tests/running_calls.rs).
        ".functions_timing.rows[].active",
        ".functions_timing.rows[].oldest_active_ns",
        ".futures.rows[].timed_calls",
    ];
    if cfg!(not(feature = "hotpath-alloc")) {
        optional.extend([
            ".functions_alloc",
            ".threads.alloc",
            ".threads.rows[].alloc_bytes",
            ".threads.rows[].dealloc_bytes",
            ".futures.rows[].alloc_bytes_avg",
            ".futures.rows[].allocs_avg",
        ]);
    }
    if cfg!(not(all(feature = "hotpath-cpu", target_os = "linux"))) {
        optional.push(".functions_cpu");
    }
    // The scenarios leave nothing sampled live at exit, and write no heap profile.
    optional.extend([".heap.rows[]", ".heap.files[]", ".heap.ignore[]", ".heap.functions[]"]);
    if cfg!(not(feature = "hotpath-heap")) {
        optional.push(".heap");
    }
    if cfg!(feature = "hotpath-callgrind") {
        optional.extend([
            ".functions_icount.tool",
            ".functions_icount.dump_file",
            ".functions_icount.uncounted",
            ".functions_icount.rows[]",
        ]);
    } else {
        optional.push(".functions_icount");
    }
    if cfg!(not(feature = "threads")) {
        optional.push(".threads");
    }
    let allowed = |path: &String| optional.iter().any(|o| path == o || path.starts_with(&format!("{o}.")));
    assert!(got.is_subset(&want), "fields not in the golden file: {:?}", got.difference(&want).collect::<Vec<_>>());
    let missing: Vec<&String> = want.difference(&got).filter(|p| !allowed(p)).collect();
    assert!(missing.is_empty(), "golden fields missing from a real report: {missing:?}");
    assert_eq!(real["schema_version"], golden["schema_version"]);
}

#[test]
fn real_io_section_has_the_golden_fields() {
    let out =
        run(command("basic_io_async").env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_PERCENTILES", "50,95,99.9"));
    let real = json_report(&out);
    assert_eq!(fields(&real, |key| key == "io"), fields(&golden(), |key| key == "io"));
}

#[test]
fn real_debug_section_has_the_golden_fields() {
    // A limit of 3 keys makes an `<other>` row; the long dbg! value is cut.
    let out =
        run(command("case_debug").arg("report").env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_ENTRIES_LIMIT", "3"));
    let real = json_report(&out);
    assert_eq!(fields(&real, |key| key == "debug"), fields(&golden(), |key| key == "debug"));
}
