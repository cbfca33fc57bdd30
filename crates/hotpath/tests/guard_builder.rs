//! `HotpathGuardBuilder` and the session parameters, on the `case_guard` program:
//! every builder option, one session at a time, sessions after sessions, the
//! shutdown timer, `HOTPATH_SHUTDOWN_MS` under `#[hotpath::main]`, time sampling.
#![cfg(feature = "hotpath")]

mod common;

use common::{command, json_report, run, stderr, stdout};

fn reports(text: &str) -> Vec<serde_json::Value> {
    text.lines().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()).collect()
}

fn calls(report: &serde_json::Value, name: &str) -> u64 {
    common::row(report, name)["calls"].as_u64().unwrap()
}

#[test]
fn every_builder_option_shapes_the_report() {
    let out = run(command("case_guard").arg("builder"));
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json_report(&out);
    assert_eq!(report["meta"]["caller"], "guard::builder");
    assert_eq!(calls(&report, "case_guard::work"), 41, "40 in the session + 1 from before_shutdown: {report:#}");
    assert_eq!(calls(&report, "case_guard::other"), 1, "before_shutdown runs before the report");
    assert_eq!(report["meta"]["percentiles"], serde_json::json!([50.0, 90.0]));
    let keys: Vec<&str> = report["functions_timing"]["rows"][0]["percentiles_ns"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["p50", "p90"]);
    assert_eq!(report["user_metadata"], serde_json::json!({"run": "1", "team": "core"}));
    // Exactly the listed sections: functions_timing (channels has no data, shown empty).
    assert!(report.get("threads").is_none(), "{report:#}");
    assert_eq!(report["channels"]["rows"], serde_json::json!([]));
    // The session's own row, unless excluded.
    assert_eq!(calls(&report, "guard::builder"), 1);
}

#[test]
fn the_environment_beats_the_builder() {
    let out = run(command("case_guard")
        .arg("builder")
        .env("HOTPATH_REPORT", "functions-timing")
        .env("HOTPATH_USER_METADATA", "team=infra, extra = yes")
        .env("HOTPATH_REPORT_LABEL", "nightly")
        .env("HOTPATH_EXCLUDE_WRAPPER", "1")
        .env("HOTPATH_FUNCTIONS_LIMIT", "1"));
    let report = json_report(&out);
    assert_eq!(report["user_metadata"], serde_json::json!({"extra": "yes", "run": "1", "team": "infra"}));
    assert_eq!(report["meta"]["label"], "nightly");
    assert!(report.get("channels").is_none(), "HOTPATH_REPORT beats sections(): {report:#}");
    let rows = report["functions_timing"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "HOTPATH_FUNCTIONS_LIMIT: {rows:#?}");
    assert!(rows.iter().all(|r| r["name"] != "guard::builder"), "HOTPATH_EXCLUDE_WRAPPER");
    let table = run(command("case_guard")
        .arg("builder")
        .env("HOTPATH_OUTPUT_FORMAT", "table")
        .env("HOTPATH_REPORT_LABEL", "nightly")
        .env("HOTPATH_FUNCTIONS_NAME_DEPTH", "1"));
    let text = stdout(&table);
    assert!(text.lines().next().unwrap().ends_with("| nightly"), "{text}");
    assert!(text.contains("user_metadata - Custom report metadata."), "{text}");
    assert!(text.contains("| work "), "one path segment: {text}");
    assert!(!text.contains("case_guard::work"), "{text}");
}

#[test]
fn one_session_at_a_time_and_each_from_zero() {
    let out = run(command("case_guard").arg("twice"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).matches("a profiling session (guard::first) is already running").count(),
        1,
        "{}",
        stderr(&out)
    );
    let reports = reports(&stdout(&out));
    assert_eq!(reports.len(), 2, "first and third, not second: {}", stdout(&out));
    assert_eq!(reports[0]["meta"]["caller"], "guard::first");
    assert_eq!(calls(&reports[0], "case_guard::work"), 10);
    assert_eq!(reports[1]["meta"]["caller"], "guard::third");
    assert_eq!(calls(&reports[1], "case_guard::work"), 4, "a later session starts from zero");
}

#[test]
fn build_with_shutdown_reports_and_exits() {
    let out = common::bounded::output(command("case_guard").arg("shutdown"), std::time::Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(0));
    let report = json_report(&out);
    assert_eq!(report["meta"]["ended_by"], "timeout");
    assert!(calls(&report, "case_guard::work") >= 10);
}

#[test]
fn shutdown_ms_under_main() {
    let mut cmd = command("case_guard");
    cmd.arg("main").env("HOTPATH_SHUTDOWN_MS", "300");
    let out = common::bounded::output(&mut cmd, std::time::Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(0));
    let report = json_report(&out);
    assert_eq!(
        (report["meta"]["ended_by"].as_str(), report["meta"]["caller"].as_str()),
        (Some("timeout"), Some("case_guard::main_scenario"))
    );
}

#[test]
fn function_time_sampling_keeps_counts_exact() {
    let out = run(command("case_guard").arg("sampled"));
    let report = json_report(&out);
    let row = common::row(&report, "case_guard::work");
    assert_eq!(row["calls"], 1000);
    let timed = row["timed_calls"].as_u64().unwrap();
    assert!((100..=450).contains(&timed), "about a quarter timed: {row:#}");
    assert_eq!(report["meta"]["time_sampling"]["functions"], 0.25);
    let text = stdout(&run(command("case_guard").arg("sampled").env("HOTPATH_OUTPUT_FORMAT", "table")));
    assert!(text.contains("[hotpath] time sampling: functions=0.25"), "{text}");
    assert!(text.contains(" timed)"), "{text}");
}
