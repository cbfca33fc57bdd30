//! `HOTPATH_*` variables override the `#[hotpath::main]` parameters; bad values are
//! one warning line each and never stop the program.
#![cfg(feature = "hotpath")]

mod common;

use common::{command, json_report, run, stderr, stdout};

#[test]
fn json_format_and_limit() {
    let out = run(command("case_exit_paths").env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_LIMIT", "1"));
    assert!(out.status.success());
    let report = json_report(&out);
    assert_eq!(report["meta"]["limit"], 1);
    assert_eq!(report["functions_timing"]["rows"].as_array().unwrap().len(), 1);
    // Two measured functions and the session's own row.
    assert_eq!(report["functions_timing"]["total_functions"], 3);
}

#[test]
fn output_path_receives_the_report() {
    let dir = std::env::temp_dir().join(format!("hotpath-env-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("report.json");
    let out =
        run(command("case_exit_paths").env("HOTPATH_OUTPUT_FORMAT", "json-pretty").env("HOTPATH_OUTPUT_PATH", &path));
    assert!(out.status.success());
    assert!(!stdout(&out).contains("schema_version"), "nothing on stdout when writing a file");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\n  \"schema_version\": 1"), "pretty JSON: {text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn focus_by_substring_and_regex() {
    let names = |focus: &str| {
        let out = run(command("case_exit_paths").env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_FOCUS", focus));
        let report = json_report(&out);
        assert_eq!(report["meta"]["focus"], focus);
        report["functions_timing"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(names("fallible"), ["case_exit_paths::fallible"]);
    assert_eq!(names("/::w.rk$/"), ["case_exit_paths::work"]);
    assert!(names("nothing-matches").is_empty());
}

#[test]
fn bad_values_warn_once_each_and_keep_defaults() {
    let out = run(command("case_exit_paths")
        .env("HOTPATH_OUTPUT_FORMAT", "xml")
        .env("HOTPATH_LIMIT", "-3")
        .env("HOTPATH_FOCUS", "/(/")
        .env("HOTPATH_PERCENTILES", "fifty")
        .env("HOTPATH_METRICS_LABELS", "service=api,function=x"));
    assert!(out.status.success());
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("[hotpath] warning: ")).collect();
    assert_eq!(warnings.len(), 5, "{err}");
    assert!(err.contains(
        "HOTPATH_METRICS_LABELS=\"service=api,function=x\" has \"function\", a label hotpath or Prometheus \
         already uses; using no process labels"
    ));
    assert!(err.contains("HOTPATH_OUTPUT_FORMAT=\"xml\" is not one of table, json, json-pretty, none; using table"));
    assert!(err.contains("HOTPATH_LIMIT=\"-3\" is not a row count (0 shows all); using 15"));
    assert!(err.contains("HOTPATH_FOCUS=\"/(/\" is not a valid regex"));
    assert!(err.contains("HOTPATH_PERCENTILES=\"fifty\""));
    // The report still comes out, with the parameters from #[hotpath::main].
    assert!(stdout(&out).contains("| Function "));
    assert!(stdout(&out).contains("P99.9"));
}

#[test]
fn format_none_prints_nothing() {
    let out = run(command("case_exit_paths").env("HOTPATH_OUTPUT_FORMAT", "none"));
    assert!(out.status.success());
    assert_eq!(stdout(&out), "");
}

#[test]
fn unwritable_output_path_is_a_warning() {
    let out = run(command("case_exit_paths").env("HOTPATH_OUTPUT_PATH", "/nonexistent-dir/x/report.txt"));
    assert!(out.status.success());
    assert!(stderr(&out).contains("[hotpath] warning: could not write the report to /nonexistent-dir/x/report.txt"));
}
