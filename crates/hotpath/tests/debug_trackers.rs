//! The debug trackers in real processes (`case_debug`): the `debug` section as table
//! and JSON, nothing recorded outside the session, the HOTPATH_* limits, exact counts
//! from many threads and Tokio tasks, flat memory under 10M `dbg!` calls and 100,000
//! keys, and the live endpoints (`/debug`, the logs, `/metrics` through promtool).

mod common;

use common::{command, run, stderr, stdout};

/// Runs `case_debug` with `args` and the given environment; must succeed.
fn case(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = command("case_debug");
    cmd.args(args).envs(env.iter().copied());
    let out = run(&mut cmd);
    assert!(out.status.success(), "case_debug {args:?} failed:\n{}\n{}", stdout(&out), stderr(&out));
    out
}

#[cfg(not(feature = "hotpath"))]
#[test]
fn off_the_program_runs_and_reports_nothing() {
    let out = case(&["report"], &[]);
    assert_eq!(stdout(&out), "values ok\n");
    assert_eq!(stderr(&out), "");
}

#[cfg(not(feature = "hotpath"))]
#[test]
fn off_a_panicking_debug_is_never_formatted() {
    let out = case(&["panics"], &[]);
    assert_eq!((stdout(&out).as_str(), stderr(&out).as_str()), ("values ok\n", ""));
}

#[cfg(feature = "hotpath")]
mod on {
    use super::common::json_report;
    use super::*;
    use serde_json::Value;

    fn rows(report: &Value) -> Vec<Value> {
        report["debug"]["rows"].as_array().cloned().unwrap_or_else(|| panic!("no debug rows in {report:#}"))
    }

    fn find(report: &Value, kind: &str, name: &str) -> Value {
        rows(report)
            .into_iter()
            .find(|r| r["kind"] == kind && r["name"] == name)
            .unwrap_or_else(|| panic!("no {kind} row {name} in {:#}", report["debug"]))
    }

    /// `key=value` fields of the line the program prints on stderr.
    fn field(text: &str, key: &str) -> u64 {
        let prefix = format!("{key}=");
        let value = text.split_whitespace().find_map(|w| w.strip_prefix(prefix.as_str()));
        value.and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("no {key} in {text}"))
    }

    #[test]
    fn json_section_has_raw_values_in_report_order() {
        let out = case(&["report"], &[("HOTPATH_OUTPUT_FORMAT", "json")]);
        assert!(stdout(&out).starts_with("values ok\n"));
        let report = json_report(&out);
        let debug = &report["debug"];
        assert_eq!((debug["logs_limit"].as_u64(), debug["max_log_len"].as_u64()), (Some(50), Some(1536)));
        assert_eq!(debug["entries_limit"], 1000);
        let kinds: Vec<&str> = debug["rows"].as_array().unwrap().iter().map(|r| r["kind"].as_str().unwrap()).collect();
        let first = |k| kinds.iter().position(|x| *x == k).unwrap();
        assert!(first("dbg") < first("val") && first("val") < first("gauge"), "{kinds:?}");
        // Nothing from before the session or after its report.
        assert!(rows(&report).iter().all(|r| !r["name"].as_str().unwrap().contains("session")), "{debug:#}");
        let x = find(&report, "dbg", "x * 2");
        assert_eq!((x["value"].as_str(), x["count"].as_u64()), (Some("42"), Some(1)));
        assert!(x["last_at_ns"].as_u64().unwrap() <= report["meta"]["wall_ns"].as_u64().unwrap());
        assert!(x["file"].as_str().unwrap().ends_with("programs/debug.rs") && x["line"].as_u64() > Some(0));
        assert_eq!(find(&report, "dbg", "i")["count"], 60);
        assert_eq!(find(&report, "dbg", "\"two\"")["value"], "\"two\"");
        let long = find(&report, "dbg", "long.as_str()");
        assert_eq!((long["cut"].as_bool(), long["value"].as_str().unwrap().chars().count()), (Some(true), 1536));
        let state = find(&report, "val", "state");
        assert_eq!((state["count"].as_u64(), state["value"].as_str()), (Some(2), Some("\"stopped\"")));
        assert_eq!(find(&report, "val", "conn-2")["value"], "20");
        let queue = find(&report, "gauge", "queue");
        assert_eq!(
            (queue["current"].as_f64(), queue["min"].as_f64(), queue["max"].as_f64()),
            (Some(12.0), Some(10.0), Some(15.0))
        );
        assert_eq!(queue["history"], serde_json::json!([10.0, 15.0, 12.0]));
        assert_eq!(find(&report, "gauge", "ratio")["current"], 1.25);
        assert_eq!(find(&report, "gauge", "fresh")["current"], -3.0);
        // The report reads back with the model's types.
        hotpath_model::Report::from_json(&serde_json::to_string(&report).unwrap()).expect("parses");
    }

    #[test]
    fn table_has_one_sub_table_per_macro() {
        let out = case(&["report"], &[]);
        let text = stdout(&out);
        let section = text.split("\ndebug - ").nth(1).unwrap_or_else(|| panic!("no debug section:\n{text}"));
        let titles: Vec<&str> = section.lines().filter(|l| l.ends_with('!')).collect();
        assert_eq!(titles, ["dbg!", "val!", "gauge!"], "{section}");
        assert_eq!(
            common::table_columns_named(section, "| Expression"),
            ["Expression", "Source", "Calls", "Value", "Thread", "Last"]
        );
        let cells =
            |l: &str| l.split('|').map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect::<Vec<_>>();
        let keyed: Vec<Vec<String>> = section.lines().filter(|l| l.starts_with("| Key ")).map(cells).collect();
        assert_eq!(keyed[0], ["Key", "Updates", "Value", "Source", "Thread", "Last"]);
        assert_eq!(keyed[1], ["Key", "Current", "Min", "Max", "Updates", "Trend", "Last"]);
        assert_eq!(common::table_row(section, "queue")[1..5], ["12", "10", "15", "3"]);
        assert_eq!(common::table_row(section, "state")[1..3], ["2", "\"stopped\""]);
        assert_eq!(common::table_row(section, "x * 2")[3], "42");
    }

    #[test]
    fn limits_come_from_the_environment_and_extra_keys_fold_into_other() {
        let env = [
            ("HOTPATH_OUTPUT_FORMAT", "json"),
            ("HOTPATH_LOGS_LIMIT", "5"),
            ("HOTPATH_MAX_LOG_LEN", "20"),
            ("HOTPATH_ENTRIES_LIMIT", "3"),
        ];
        let out = case(&["report"], &env);
        let report = json_report(&out);
        let debug = &report["debug"];
        assert_eq!((debug["logs_limit"].as_u64(), debug["max_log_len"].as_u64()), (Some(5), Some(20)));
        let long = find(&report, "dbg", "long.as_str()");
        assert_eq!(long["value"].as_str().unwrap(), format!("\"{}...", "é".repeat(16)));
        // val!: state and conn-0 fit beside <other>; conn-1 and conn-2 fold.
        let vals: Vec<String> =
            rows(&report).iter().filter(|r| r["kind"] == "val").map(|r| r["name"].as_str().unwrap().into()).collect();
        assert_eq!(vals, ["conn-0", "state", "<other>"]);
        let other = find(&report, "val", "<other>");
        assert_eq!(
            (other["count"].as_u64(), other["other"].as_bool(), other["value"].as_str()),
            (Some(2), Some(true), Some("20"))
        );
        let warnings: Vec<&str> =
            report["meta"]["warnings"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        let about = |what: &str| warnings.iter().filter(|w| w.starts_with(what)).count();
        assert_eq!(
            (about("val! has more than 2 distinct keys"), about("gauge! has more than 2")),
            (1, 1),
            "{warnings:?}"
        );
        // Bad values: one warning each, defaults kept.
        let out = case(&["report"], &[("HOTPATH_OUTPUT_FORMAT", "json"), ("HOTPATH_LOGS_LIMIT", "lots")]);
        assert_eq!(json_report(&out)["debug"]["logs_limit"], 50);
        assert!(stderr(&out).contains("HOTPATH_LOGS_LIMIT=\"lots\" is not a number in 0..=100000; using 50"));
    }

    #[test]
    fn many_threads_and_tasks_give_exact_counts() {
        let out = case(&["threads", "8", "5000"], &[("HOTPATH_OUTPUT_FORMAT", "json")]);
        let report = json_report(&out);
        let shared = find(&report, "gauge", "shared");
        assert_eq!((shared["current"].as_f64(), shared["updates"].as_u64()), (Some(40_000.0), Some(40_000)));
        assert_eq!(find(&report, "val", "shared")["count"], 40_000);
        assert_eq!(find(&report, "dbg", "i")["count"], 40_000);
        let tasks = find(&report, "gauge", "tasks");
        assert_eq!((tasks["current"].as_f64(), tasks["updates"].as_u64()), (Some(20_000.0), Some(80_000)));
    }

    #[test]
    fn ten_million_dbg_calls_at_one_site_keep_memory_flat() {
        let out = case(&["dbg-calls", "10000000"], &[("HOTPATH_OUTPUT_FORMAT", "json")]);
        let line = stderr(&out);
        assert_eq!(
            field(&line, "bytes_warm"),
            field(&line, "bytes_end"),
            "profiler bytes after 1M and 10M calls: {line}"
        );
        assert!(field(&line, "bytes_end") < 64 * 1024, "one site's log: {line}");
        // Other instruments of an all-features build (the CPU sampler's profile) grow with
        // time; a leak of half a byte per call would show as 4 MiB here.
        assert!(field(&line, "rss_end_kib") <= field(&line, "rss_warm_kib") + 4096, "RSS grew: {line}");
        assert_eq!(find(&json_report(&out), "dbg", "i")["count"], 10_000_000);
    }

    #[test]
    fn long_values_under_many_keys_stay_within_the_log_budget_and_sets_stay_cheap() {
        let out = case(&["val-sets", "150000", "999"], &[("HOTPATH_OUTPUT_FORMAT", "json")]);
        let line = stderr(&out);
        // 999 keys × 50 records × 1538 characters would hold 77 MB; the logs share 32 MiB
        // (the rest of profiler_bytes: slot arrays and other instruments).
        assert!(field(&line, "log_bytes") <= 32 << 20, "the logs' own accounting: {line}");
        assert!(field(&line, "log_bytes") > 24 << 20, "the budget is used, not undercounted: {line}");
        assert!(field(&line, "bytes_end") < 40 << 20, "{line}");
        assert!(field(&line, "hwm_kib") < 256 * 1024, "{line}");
        // A set that cost O(sets so far) would take minutes here, even in a release build.
        assert!(field(&line, "ms") < 60_000, "{line}");
        let report = json_report(&out);
        let row = find(&report, "val", "key-998");
        assert_eq!(row["count"], 150, "counts go on when records are dropped: {row}");
        assert_eq!(row["value"].as_str().map(str::len), Some(1536), "the newest value is kept, cut: {row}");
    }

    #[test]
    fn a_panicking_debug_never_reaches_a_hook_set_before_the_session() {
        let out = case(&["panics"], &[("HOTPATH_OUTPUT_FORMAT", "json")]);
        assert!(!stderr(&out).contains("the program's hook saw"), "{}", stderr(&out));
        assert!(!stderr(&out).contains("panicked at"), "{}", stderr(&out));
        let report = json_report(&out);
        for (kind, name) in [("dbg", "Bad(1)"), ("val", "bad")] {
            let row = find(&report, kind, name);
            assert_eq!((row["value"].as_str(), row["count"].as_u64()), (Some("<Debug panicked>"), Some(1)), "{row}");
        }
        let logged = &report["debug"]["logged"][0];
        assert_eq!(
            (logged["name"].as_str(), logged["value"].as_str()),
            (Some("case_debug::make_bad"), Some("<Debug panicked>"))
        );
        assert_eq!(report.to_string().matches("<Debug panicked>").count(), 3, "once per log: {report:#}");
    }

    #[test]
    fn a_hook_set_during_the_session_sees_the_panics_which_stay_contained() {
        let out = case(&["panics-late"], &[("HOTPATH_OUTPUT_FORMAT", "json")]);
        // dbg!, val! and the measured function's log each format once.
        assert_eq!(field(&stderr(&out), "hook_calls"), 3, "{}", stderr(&out));
        assert_eq!(find(&json_report(&out), "val", "bad")["value"], "<Debug panicked>");
    }

    #[test]
    fn a_hundred_thousand_keys_stay_within_the_entries_limit() {
        let small = case(&["keys", "20000"], &[("HOTPATH_OUTPUT_FORMAT", "json")]);
        let large = case(&["keys", "100000"], &[("HOTPATH_OUTPUT_FORMAT", "json")]);
        let (small_line, large_line) = (stderr(&small), stderr(&large));
        // Past the limit, more keys cost nothing more: the same bytes for 20k and 100k keys,
        // under the documented bound (README: about 1.6 MB for 1000 val! and 1000 gauge! keys
        // updated once each).
        assert_eq!(field(&small_line, "bytes_end"), field(&large_line, "bytes_end"), "{small_line}\n{large_line}");
        assert!(field(&large_line, "bytes_end") < 4 << 20, "{large_line}");
        let report = json_report(&large);
        assert_eq!(report["debug"]["rows"].as_array().unwrap().len(), 2000);
        let other = find(&report, "val", "<other>");
        assert_eq!(other["count"], 100_000 - 999);
        assert_eq!(find(&report, "gauge", "<other>")["current"], 99_999.0);
        let warned = large_line.matches("distinct keys: further keys are counted under <other>").count();
        assert_eq!(warned, 2, "one warning per macro: {large_line}");
        let warnings = report["meta"]["warnings"].as_array().unwrap();
        assert_eq!(warnings.len(), 2, "the header says so once per macro: {warnings:?}");
    }
}

#[cfg(all(feature = "hotpath", feature = "live", target_os = "linux"))]
mod live {
    use std::time::{Duration, Instant};

    use serde_json::Value;

    use super::common::{command, live::Live};

    fn start() -> Live {
        let mut cmd = command("case_debug");
        cmd.env_remove("HOTPATH_METRICS_SERVER_OFF")
            .env("HOTPATH_METRICS_PORT", "0")
            .env("HOTPATH_OUTPUT_FORMAT", "none")
            .args(["live", "60"]);
        Live::start(cmd)
    }

    /// The id of a row of `/debug`, waiting for it to appear.
    fn id(live: &Live, kind: &str, name: &str) -> u64 {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let reply = live.get("/debug", "");
            if reply.status == 200 {
                let rows = reply.json()["rows"].as_array().cloned().unwrap_or_default();
                if let Some(row) = rows.iter().find(|r| r["kind"] == kind && r["name"] == name) {
                    return row["id"].as_u64().expect("an id");
                }
            }
            assert!(Instant::now() < deadline, "no {kind} {name} in /debug: {}", reply.body);
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn values(logs: &Value) -> Vec<String> {
        logs["logs"].as_array().unwrap().iter().map(|l| l["value"].as_str().unwrap_or("").to_string()).collect()
    }

    #[test]
    fn debug_section_and_logs_endpoints() {
        let live = start();
        let index = live.json("/");
        assert!(index["endpoints"].as_array().unwrap().iter().any(|e| e == "/debug/{dbg|val|gauge}/{id}/logs"));
        let dbg = id(&live, "dbg", "i");
        let logs = live.json(&format!("/debug/dbg/{dbg}/logs"));
        assert_eq!(
            (logs["kind"].as_str(), logs["name"].as_str(), logs["total"].as_u64()),
            (Some("dbg"), Some("i"), Some(60))
        );
        assert_eq!(logs["logs"].as_array().unwrap().len(), 50);
        assert_eq!((logs["logs"][0]["seq"].as_u64(), logs["logs"][0]["value"].as_str()), (Some(60), Some("59")));
        assert!(logs["logs"][0]["at_ns"].as_u64().unwrap() > 0 && logs["logs"][0]["thread"] == "main");
        assert_eq!(values(&live.json(&format!("/debug/dbg/{dbg}/logs?limit=2"))), ["59", "58"]);
        let focused = values(&live.json(&format!("/debug/dbg/{dbg}/logs?focus=5")));
        assert_eq!(focused, ["59", "58", "57", "56", "55", "54", "53", "52", "51", "50", "45", "35", "25", "15"]);

        let state = live.json(&format!("/debug/val/{}/logs", id(&live, "val", "state")));
        assert_eq!(values(&state), ["\"stopped\"", "\"running\""]);
        let lines: Vec<u64> = state["logs"].as_array().unwrap().iter().map(|l| l["line"].as_u64().unwrap()).collect();
        assert!(lines[0] > lines[1], "each record has its call site: {state}");

        let queue = live.json(&format!("/debug/gauge/{}/logs", id(&live, "gauge", "queue")));
        let ops: Vec<(&str, f64)> = queue["logs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| (l["op"].as_str().unwrap(), l["current"].as_f64().unwrap()))
            .collect();
        assert_eq!(ops, [("dec", 12.0), ("inc", 15.0), ("set", 10.0)]);

        // The logs are read live, not from the 200 ms snapshot cache.
        let ticks = id(&live, "val", "tick");
        let total = |live: &Live| live.json(&format!("/debug/val/{ticks}/logs"))["total"].as_u64().unwrap();
        let first = total(&live);
        std::thread::sleep(Duration::from_millis(100));
        assert!(total(&live) > first);

        for (path, status) in [
            ("/debug/val/999999/logs", 404),
            ("/debug/nope/0/logs", 404),
            ("/debug/gauge/x/logs", 404),
            ("/debug/dbg/0/logs?limit=ten", 400),
        ] {
            let reply = live.get(path, "");
            assert_eq!(reply.status, status, "{path}: {}", reply.body);
            assert!(reply.json()["error"].as_str().is_some(), "{path}: {}", reply.body);
        }
        assert!(live.get("/debug/val/999999/logs", "").body.contains("no val! tracker with id 999999"));
    }

    #[test]
    fn gauges_on_metrics_pass_promtool() {
        let live = start();
        id(&live, "gauge", "queue");
        let body = live.get("/metrics", "").body;
        for line in [
            "hotpath_tracker_value{key=\"queue\"} 12",
            "hotpath_tracker_value_min{key=\"queue\"} 10",
            "hotpath_tracker_value_max{key=\"queue\"} 15",
            "hotpath_tracker_updates_total{tracker=\"gauge\",key=\"queue\"} 3",
            "hotpath_tracker_value{key=\"ratio\"} 1.25",
            "hotpath_tracker_updates_total{tracker=\"val\",key=\"state\"} 2",
            "# TYPE hotpath_tracker_value gauge",
        ] {
            assert!(body.lines().any(|l| l == line), "missing {line:?} in\n{body}");
        }
        assert!(body.contains("hotpath_dbg_calls_total{expression=\"x * 2\",source=\""), "{body}");
        super::common::live::promtool_accepts(&body);
    }
}
