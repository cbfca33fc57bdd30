//! `tokio_runtime!()` on real runtimes: a balanced workload raises no flag, a blocking
//! call in async code raises `blocking` and `imbalance`, a queue build-up raises
//! `global_queue_growth`; several runtimes by handle and label; the unstable metrics
//! are present exactly when the build has `--cfg tokio_unstable` (scripts/test runs
//! this file both ways).
#![cfg(all(feature = "hotpath", feature = "tokio"))]

mod common;

use std::collections::BTreeSet;
use std::process::Output;
use std::sync::Mutex;

use serde_json::Value;

use common::{command, json_report, run, stderr, stdout};

/// The scenarios are timing-driven: run them one at a time so they never compete
/// with each other for the machine's two cores.
static SERIAL: Mutex<()> = Mutex::new(());

const UNSTABLE: bool = cfg!(tokio_unstable);

fn scenario(name: &str, format: &str) -> Output {
    let _one_at_a_time = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let out = run(command(name).env("HOTPATH_OUTPUT_FORMAT", format).env("HOTPATH_TOKIO_RUNTIME_INTERVAL_MS", "20"));
    assert!(out.status.success(), "{name} failed:\n{}\n{}", stdout(&out), stderr(&out));
    out
}

/// The section and its only runtime.
fn single_runtime(name: &str) -> (Value, Value) {
    let report = json_report(&scenario(name, "json"));
    let section = report["tokio_runtime"].clone();
    assert_eq!(section["runtimes"].as_array().map(Vec::len), Some(1), "{section:#}");
    let runtime = section["runtimes"][0].clone();
    (section, runtime)
}

fn flag_kinds(runtime: &Value) -> BTreeSet<String> {
    runtime["flags"].as_array().unwrap().iter().map(|f| f["kind"].as_str().unwrap().to_string()).collect()
}

fn flag<'a>(runtime: &'a Value, kind: &str) -> &'a Value {
    runtime["flags"].as_array().unwrap().iter().find(|f| f["kind"] == kind).unwrap()
}

fn set(kinds: &[&str]) -> BTreeSet<String> {
    kinds.iter().map(|k| k.to_string()).collect()
}

/// Checks the fields that only `tokio_unstable` builds report.
fn unstable_fields_match_the_build(runtime: &Value) {
    for key in ["blocking_threads", "idle_blocking_threads", "blocking_queue_depth", "spawned_tasks"] {
        assert_eq!(runtime.get(key).is_some(), UNSTABLE, "{key} in {runtime:#}");
    }
    for worker in runtime["workers"].as_array().unwrap() {
        for key in ["polls", "steals", "local_queue_depth", "mean_poll_ns", "overflows"] {
            assert_eq!(worker.get(key).is_some(), UNSTABLE, "{key} in {worker:#}");
        }
    }
}

#[test]
fn balanced_workload_raises_no_flag() {
    let (section, rt) = single_runtime("case_tokio_balanced");
    assert_eq!(section["tokio_unstable"], UNSTABLE);
    assert_eq!(section["interval_ms"], 20);
    assert_eq!(
        (rt["name"].as_str(), rt["flavor"].as_str(), rt["num_workers"].as_u64()),
        (Some("balanced"), Some("multi_thread"), Some(2))
    );
    assert_eq!(flag_kinds(&rt), set(&[]), "{rt:#}");
    // 64 runnable tasks keep both workers busy most of the time.
    for w in rt["workers"].as_array().unwrap() {
        assert!(w["busy_percent"].as_f64().unwrap() > 25.0, "{w:#}");
        assert_eq!(w["stalls"], 0, "{w:#}");
    }
    assert!(rt["samples"].as_u64().unwrap() >= 10 && !rt["history"].as_array().unwrap().is_empty(), "{rt:#}");
    unstable_fields_match_the_build(&rt);
    if UNSTABLE {
        let polls: u64 = rt["workers"].as_array().unwrap().iter().map(|w| w["polls"].as_u64().unwrap()).sum();
        let spawned = rt["spawned_tasks"].as_u64().unwrap();
        assert!(spawned >= 64 && polls >= 64, "64 tasks were spawned and polled: {rt:#}");
    }
}

#[test]
fn blocking_call_in_async_code_raises_blocking_and_imbalance() {
    let (_, rt) = single_runtime("case_tokio_blocking");
    assert_eq!(flag_kinds(&rt), set(&["blocking", "imbalance"]), "{rt:#}");
    // Both flags name the worker that was blocked, and that worker recorded the stall.
    let blocked = flag(&rt, "blocking")["workers"][0].as_u64().unwrap();
    assert_eq!(flag(&rt, "imbalance")["workers"], serde_json::json!([blocked]));
    let worker = &rt["workers"][blocked as usize];
    assert!(worker["stalls"].as_u64().unwrap() >= 1 && worker["longest_stall_ns"].as_u64().unwrap() >= 100_000_000);
    let why = flag(&rt, "blocking")["message"].as_str().unwrap();
    assert!(why.starts_with(&format!("worker {blocked} ran for up to ")), "{why}");
    assert!(why.contains("without publishing progress") && why.contains("spawn_blocking"), "{why}");
    if UNSTABLE {
        // The unstable poll count adds the second signal: busy time on a single poll.
        assert!(why.contains("busy on 1 poll in one sampling step"), "{why}");
    }
    let why = flag(&rt, "imbalance")["message"].as_str().unwrap();
    assert!(
        why.starts_with(&format!("worker {blocked} was ")) && why.contains("busy while the other workers averaged")
    );
    unstable_fields_match_the_build(&rt);
}

#[test]
fn queue_build_up_raises_global_queue_growth() {
    let (_, rt) = single_runtime("case_tokio_queue");
    assert_eq!(flag_kinds(&rt), set(&["global_queue_growth"]), "{rt:#}");
    assert!(rt["max_global_queue_depth"].as_u64().unwrap() >= 100, "{rt:#}");
    assert!(rt["max_alive_tasks"].as_u64().unwrap() >= 100, "{rt:#}");
    let why = flag(&rt, "global_queue_growth")["message"].as_str().unwrap();
    assert!(why.starts_with("global queue grew from ") && why.contains("faster than they are run"), "{why}");
    // Unnamed, the runtime is called after its call site.
    let name = rt["name"].as_str().unwrap();
    assert!(
        name.ends_with(&format!("tests/programs/tokio_queue.rs:{}", rt["line"])) && rt["line"].as_u64() > Some(1),
        "{rt:#}"
    );
    unstable_fields_match_the_build(&rt);
}

#[test]
fn several_runtimes_by_handle_and_label() {
    let out = scenario("case_tokio_runtimes", "json");
    let report = json_report(&out);
    let section = &report["tokio_runtime"];
    let runtimes = section["runtimes"].as_array().unwrap();
    let summary: Vec<(&str, &str, u64)> = runtimes
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["flavor"].as_str().unwrap(), r["num_workers"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        summary,
        [("api", "multi_thread", 3), ("background", "current_thread", 1), ("again", "current_thread", 1)],
        "a site in a loop registers once; the call outside a runtime registers nothing"
    );
    assert_eq!(section["total_runtimes"], 3);
    assert!(runtimes.iter().all(|r| r["flags"].as_array().unwrap().is_empty()), "{section:#}");
    let warnings: Vec<String> =
        stderr(&out).lines().filter(|l| l.starts_with("[hotpath] warning: ")).map(String::from).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("tokio_runtime!() at ") && warnings[0].contains("outside a Tokio runtime"));

    // Focus keeps the runtimes whose name matches.
    let _one_at_a_time = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let focused = json_report(&run(command("case_tokio_runtimes")
        .env("HOTPATH_OUTPUT_FORMAT", "json")
        .env("HOTPATH_FOCUS", "/^(api|again)$/")));
    let names: Vec<&str> =
        focused["tokio_runtime"]["runtimes"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["api", "again"]);
    assert_eq!(focused["tokio_runtime"]["total_runtimes"], 3);
}

#[test]
fn bad_interval_warns_and_uses_the_default() {
    let _one_at_a_time = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let out = run(command("case_tokio_runtimes")
        .env("HOTPATH_OUTPUT_FORMAT", "json")
        .env("HOTPATH_TOKIO_RUNTIME_INTERVAL_MS", "fast"));
    assert!(out.status.success());
    let expected = "[hotpath] warning: HOTPATH_TOKIO_RUNTIME_INTERVAL_MS=\"fast\" is not a number of milliseconds in 1..=60000; using 1000";
    assert!(stderr(&out).lines().any(|l| l == expected), "{}", stderr(&out));
    assert_eq!(json_report(&out)["tokio_runtime"]["interval_ms"], 1000);
}

#[test]
fn table_shows_the_section_columns_and_reasons() {
    let text = stdout(&scenario("case_tokio_blocking", "table"));
    let metrics = if UNSTABLE { "tokio_unstable metrics" } else { "stable metrics" };
    let title = format!(
        "tokio-runtime - Tokio runtime workers, scheduling and queues. (1 runtime, sampled every 20 ms, {metrics})"
    );
    assert!(text.lines().any(|l| l == title), "{text}");
    let columns = |first: &str| -> Vec<String> {
        let line = text.lines().find(|l| l.starts_with(&format!("| {first} "))).unwrap_or_else(|| panic!("{text}"));
        line.split('|').map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect()
    };
    let mut worker_columns = vec!["Worker", "Busy%", "Busy", "Parks"];
    if UNSTABLE {
        worker_columns.extend(["Polls", "Steals", "Local queue", "Mean poll", "Overflows"]);
    }
    worker_columns.extend(["Longest stall", "Stalls"]);
    assert_eq!(columns("Worker"), worker_columns);
    assert!(columns("blocking").last().unwrap().contains("blocking"), "{text}");
    assert!(text.contains("\nflags:\n  imbalance (blocking): worker "), "{text}");
    assert!(text.contains("\n  blocking (blocking): worker "), "{text}");
}

/// The fields of a real section are those of the golden file's section (which was
/// written with `tokio_unstable`, so a stable build lacks exactly the unstable ones).
#[test]
fn real_section_has_the_golden_fields() {
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
    let golden: Value = serde_json::from_str(include_str!("../../hotpath-model/tests/golden/report_v1.json")).unwrap();
    let (real, _) = single_runtime("case_tokio_blocking");
    let (mut want, mut got) = (BTreeSet::new(), BTreeSet::new());
    paths(&golden["tokio_runtime"], "", &mut want);
    paths(&real, "", &mut got);
    let unstable_only: BTreeSet<String> = [
        ".runtimes[].blocking_threads",
        ".runtimes[].idle_blocking_threads",
        ".runtimes[].blocking_queue_depth",
        ".runtimes[].max_blocking_queue_depth",
        ".runtimes[].spawned_tasks",
        ".runtimes[].remote_schedules",
        ".runtimes[].budget_forced_yields",
        ".runtimes[].workers[].polls",
        ".runtimes[].workers[].steals",
        ".runtimes[].workers[].steal_operations",
        ".runtimes[].workers[].overflows",
        ".runtimes[].workers[].local_queue_depth",
        ".runtimes[].workers[].max_local_queue_depth",
        ".runtimes[].workers[].mean_poll_ns",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let expected: BTreeSet<String> =
        if UNSTABLE { want.clone() } else { want.difference(&unstable_only).cloned().collect() };
    assert_eq!(got, expected, "fields differ from the golden section");
}
