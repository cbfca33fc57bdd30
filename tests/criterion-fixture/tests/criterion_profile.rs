//! The Criterion adapter on the `fixture` example (a user's benches on
//! `hotpath::criterion`): with `HOTPATH_CRITERION_ITERATIONS=N` one selected benchmark
//! runs exactly N times under one report; without it, Criterion runs as usual.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The example binary `cargo test` built beside this test (target/<profile>/examples).
fn fixture() -> Command {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>");
    let path: PathBuf = dir.join("examples").join("fixture");
    assert!(path.exists(), "{} was not built; run through `cargo test`", path.display());
    let mut cmd = Command::new(path);
    for (key, _) in std::env::vars() {
        if key.starts_with("HOTPATH_") {
            cmd.env_remove(key);
        }
    }
    cmd.env("HOTPATH_METRICS_SERVER_OFF", "1");
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("fixture runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Without the variable: Criterion's own test-mode output, no report.
#[test]
fn without_the_variable_criterion_runs_as_usual() {
    let out = run(fixture().args(["--test", "--exact", "work/iter"]));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("Testing work/iter"), "{stdout}");
    assert!(stdout.contains("Success"), "{stdout}");
    assert!(!stdout.contains("Testing work/iter_batched"), "--exact: {stdout}");
    assert!(!stdout.contains("hotpath"), "no report: {stdout}");
    // Every Bencher method, sync and async, forwards: all benchmarks pass in test mode.
    let out = run(fixture().arg("--test"));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for id in
        ["work/iter_custom", "work/input/7", "standalone", "async/iter", "async/iter_batched", "async/iter_custom"]
    {
        assert!(stdout.contains(&format!("Testing {id}\nSuccess")), "{id}: {stdout}");
    }
}

/// A short real measurement prints Criterion's estimate line.
#[test]
fn without_the_variable_criterion_measures() {
    let dir = std::env::temp_dir().join(format!("hotpath-criterion-{}", std::process::id()));
    let out = run(fixture()
        .args(["--bench", "--exact", "work/iter", "--warm-up-time", "0.05", "--measurement-time", "0.1"])
        .args(["--nresamples", "100", "--noplot", "--discard-baseline"])
        .env("CARGO_TARGET_DIR", &dir));
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("work/iter") && stdout.contains("time:"), "{stdout}");
}

/// Profiling tests; each returns at once in a build where hotpath does not profile.
mod profiling {
    use super::*;

    /// Runs one benchmark with N = 1000 and returns its JSON report.
    fn profile(filter: &[&str]) -> serde_json::Value {
        let dir = std::env::temp_dir();
        let path =
            dir.join(format!("hotpath-criterion-{}-{}.json", std::process::id(), filter.join("_").replace('/', "_")));
        let out = run(fixture()
            .args(filter)
            .env("HOTPATH_CRITERION_ITERATIONS", "1000")
            .env("HOTPATH_OUTPUT_FORMAT", "json")
            .env("HOTPATH_OUTPUT_PATH", &path));
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(!stdout.contains("Testing") && !stdout.contains("time:"), "Criterion did not run: {stdout}");
        let report = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let _ = std::fs::remove_file(&path);
        serde_json::from_str(&report).expect("JSON report")
    }

    fn calls(report: &serde_json::Value, name: &str) -> Option<u64> {
        let rows = report["functions_timing"]["rows"].as_array().expect("functions_timing rows");
        rows.iter().find(|r| r["name"] == name).map(|r| r["calls"].as_u64().unwrap())
    }

    fn assert_calls(report: &serde_json::Value, expected: &[(&str, u64)]) {
        for (name, n) in expected {
            assert_eq!(calls(report, name), Some(*n), "{name}: {report:#}");
        }
    }

    fn assert_session(report: &serde_json::Value, id: &str) {
        assert_eq!(report["meta"]["caller"], "hotpath::criterion::bench", "{report:#}");
        assert_eq!(
            report["user_metadata"],
            serde_json::json!({"criterion_benchmark": id, "criterion_iterations": "1000"})
        );
        assert_eq!(calls(report, "hotpath::criterion::bench"), Some(1));
    }

    #[test]
    fn iter_runs_the_routine_exactly_n_times() {
        if !hotpath::__PROFILING {
            return;
        }
        let report = profile(&["--exact", "work/iter"]);
        assert_session(&report, "work/iter");
        assert_calls(&report, &[("hotpath::criterion::routine", 1000), ("fixture::work", 2000)]);
        if cfg!(feature = "hotpath-alloc") {
            assert!(report["functions_alloc"]["rows"].as_array().is_some_and(|r| !r.is_empty()), "{report:#}");
        }
    }

    #[test]
    fn async_iter_measures_each_future() {
        if !hotpath::__PROFILING {
            return;
        }
        let report = profile(&["--exact", "async/iter"]);
        assert_session(&report, "async/iter");
        assert_calls(
            &report,
            &[("hotpath::criterion::async_routine", 1000), ("fixture::work_async", 1000), ("fixture::work", 1000)],
        );
        assert_eq!(calls(&report, "hotpath::criterion::routine"), None);
    }

    #[test]
    fn batched_setups_and_routines_add_up_to_n() {
        if !hotpath::__PROFILING {
            return;
        }
        for id in [
            "work/iter_batched",
            "work/iter_batched_per_iteration",
            "work/iter_batched_ref",
            "work/iter_with_setup",
            "async/iter_batched",
        ] {
            let report = profile(&["--exact", id]);
            assert_session(&report, id);
            let row = if id.starts_with("async") {
                "hotpath::criterion::async_routine"
            } else {
                "hotpath::criterion::routine"
            };
            assert_calls(&report, &[(row, 1000), ("fixture::work", 1000), ("fixture::prepare", 1000)]);
        }
    }

    #[test]
    fn custom_routines_get_n_and_other_methods_count_exactly() {
        if !hotpath::__PROFILING {
            return;
        }
        for id in ["work/iter_custom", "async/iter_custom"] {
            let report = profile(&["--exact", id]);
            assert_calls(&report, &[("fixture::work", 1000)]);
            assert_eq!(calls(&report, "hotpath::criterion::routine"), None, "{id}: no per-iteration row");
        }
        let report = profile(&["--exact", "work/iter_with_large_drop"]);
        assert_calls(&report, &[("hotpath::criterion::routine", 1000), ("fixture::work", 1000)]);
        // Ids as Criterion forms them: group/function/parameter, a lone bench_function.
        let report = profile(&["--exact", "work/input/7"]);
        assert_session(&report, "work/input/7");
        assert_calls(&report, &[("fixture::work", 1000)]);
        let report = profile(&["standalone"]);
        assert_session(&report, "standalone");
        assert_calls(&report, &[("hotpath::criterion::routine", 1000), ("fixture::work", 1000)]);
    }

    #[test]
    fn a_filter_must_select_exactly_one_benchmark() {
        if !hotpath::__PROFILING {
            return;
        }
        let failing = |args: &[&str], n: &str| {
            let out =
                run(fixture().args(args).env("HOTPATH_CRITERION_ITERATIONS", n).env("HOTPATH_OUTPUT_FORMAT", "json"));
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            assert!(!text(&out.stdout).contains("schema_version"), "no report: {}", text(&out.stdout));
            text(&out.stderr)
        };
        let stderr = failing(&["--exact", "work/nothing"], "1000");
        assert!(
            stderr.contains("[hotpath] error: HOTPATH_CRITERION_ITERATIONS is set but the filter selects no benchmark")
        );
        assert!(stderr.contains("work/iter_batched_ref"), "lists what there is: {stderr}");
        let stderr = failing(&["work/iter_batched"], "1000");
        assert!(
            stderr.contains(
                "the filter selects 3: work/iter_batched, work/iter_batched_per_iteration, work/iter_batched_ref"
            ),
            "{stderr}"
        );
        for bad in ["0", "-3", "ten", "1.5"] {
            let stderr = failing(&["--exact", "work/iter"], bad);
            assert!(
                stderr.contains(&format!("HOTPATH_CRITERION_ITERATIONS: expected a positive integer, got \"{bad}\"")),
                "{stderr}"
            );
        }
    }
}

/// With the `hotpath` feature off the variable is ignored, with one note.
#[test]
fn feature_off_ignores_the_variable() {
    if hotpath::__PROFILING {
        return;
    }
    let out = run(fixture().args(["--test", "--exact", "work/iter"]).env("HOTPATH_CRITERION_ITERATIONS", "1000"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Testing work/iter\nSuccess"), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("HOTPATH_CRITERION_ITERATIONS is ignored"), "{}", text(&out.stderr));
}
