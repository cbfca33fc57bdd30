//! Proof that `hotpath compare` does not cry wolf, on a real program (`proof/program.rs`:
//! threads, a contended mutex, a bounded channel, file I/O) built once and run many
//! times: A/A comparisons of the same binary raise no more alarms than their error
//! control allows (and none from one run per side), a 2x slower function is
//! flagged alone, one extra allocation per call is flagged exactly from one run per
//! side, and budgets fail and pass as written. Verdicts are asserted, never timings.

mod proof;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// Runs per side of the tested comparisons: with Holm over the program's ~90 tested
/// metrics at alpha 0.01 a change needs 9 or more (the comparison's own note says so).
const RUNS: usize = 10;

/// The tests run one at a time: the test harness would run them side by side, and each
/// one's program runs would then compete for the CPU with the others' (on a 2-core CI
/// machine a preempted run moves every timing of that run).
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn compare(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hotpath"));
    cmd.arg("compare").args(args);
    for (key, _) in std::env::vars() {
        if key.starts_with("HOTPATH_") {
            cmd.env_remove(key);
        }
    }
    cmd.output().expect("hotpath runs")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}\nstderr: {}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    })
}

fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A directory holding copies of `files`, as one side's reports.
fn side(dir: &Path, name: &str, files: &[&PathBuf]) -> PathBuf {
    let side = dir.join(name);
    std::fs::create_dir_all(&side).unwrap();
    for f in files {
        std::fs::copy(f, side.join(f.file_name().unwrap())).unwrap();
    }
    side
}

/// `(section, row, metric key)` of every regressed metric.
fn regressed(c: &Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for s in c["sections"].as_array().unwrap() {
        for r in s["rows"].as_array().unwrap() {
            for m in r["metrics"].as_array().unwrap().iter().filter(|m| m["verdict"] == "regressed") {
                let text = |v: &Value| v.as_str().unwrap().to_string();
                out.push((text(&s["name"]), text(&r["name"]), text(&m["key"])));
            }
        }
    }
    out
}

/// Reports of alternating runs of the normal program and of one changed by `env`
/// (interleaved, so that a machine drifting slower affects both alike).
fn interleaved(dir: &Path, n: usize, env: &[(&str, &str)]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for i in 0..n {
        let (pa, pb) = (dir.join(format!("a-{i:02}.json")), dir.join(format!("b-{i:02}.json")));
        proof::run(&pa, &[]);
        proof::run(&pb, env);
        a.push(pa);
        b.push(pb);
    }
    (a, b)
}

/// False alarms an A/A test of 20 comparisons tolerates. Each comparison's error
/// control (Holm at alpha 0.01) allows a false alarm in about 1% of comparisons, so 20
/// of them raise one now and then (a fresh-clone run saw one: a channel's latency p95);
/// a statistic that ignored its error control would raise many.
const ALLOWED_ALARMS: usize = 2;

#[test]
fn twenty_a_a_comparisons_of_one_binary_raise_no_more_alarms_than_the_error_rate() {
    let _serial = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    // 2 x 20 runs of the same binary; the "b" runs are just as unchanged.
    let (a, b) = interleaved(dir.path(), 2 * RUNS, &[]);
    let mut alarms = Vec::new();
    for k in 0..20 {
        // Ten runs from each pool, a different selection each time.
        fn pick(pool: &[PathBuf], offset: usize) -> Vec<&PathBuf> {
            (0..RUNS).map(|i| &pool[(offset + i * 2) % pool.len()]).collect()
        }
        let case = dir.path().join(format!("case-{k:02}"));
        let (base, head) = (side(&case, "base", &pick(&a, k)), side(&case, "head", &pick(&b, k + 1)));
        let out = compare(&[arg(&base), arg(&head), "--format", "json", "--fail-on-regression"]);
        let c = json(&out);
        assert!(c["settings"]["tested_metrics"].as_u64().unwrap() > 20, "timings were tested: {}", c["settings"]);
        if out.status.code() != Some(0) {
            alarms.push((k, regressed(&c)));
        }
        // One run per side: scheduling-dependent counts (contention, blocked sends)
        // differ, and are never called regressions; timings need more runs. Never an alarm.
        let out = compare(&[arg(&a[k]), arg(&b[k]), "--format", "json", "--fail-on-regression"]);
        assert_eq!(out.status.code(), Some(0), "single-run A/A {k} regressed: {:?}", regressed(&json(&out)));
    }
    assert!(alarms.len() <= ALLOWED_ALARMS, "A/A comparisons of 10 against 10 runs raised alarms: {alarms:?}");
    // The same runs through the self-check: 20 splits of 20 against 20.
    let all = side(dir.path(), "all", &a.iter().chain(&b).collect::<Vec<_>>());
    let text = String::from_utf8_lossy(&compare(&["--aa", arg(&all)]).stdout).into_owned();
    assert!(text.contains("A/A self-check: 20 comparisons of 20 against 20 runs"), "{text}");
    let c: Value = serde_json::from_slice(&compare(&["--aa", arg(&all), "--format", "json"]).stdout).unwrap();
    assert_eq!(c["comparisons"].as_u64(), Some(20), "{c:#}");
    let alarmed = c["alarmed"].as_u64().unwrap() as usize;
    assert!(alarmed <= ALLOWED_ALARMS, "{text}");
    assert!(text.contains(&format!("false alarms: {alarmed} of 20 comparisons")), "{text}");
}

/// Runs per side when a change of 2x must show. Mann–Whitney counts the pairs out of
/// order: on a shared 2-core VM one run of the unchanged side can be slowed by the
/// host as much as the change, and then ranks above every run of the changed side:
/// 10 pairs out of order with 10 runs a side, where Holm's first threshold (0.01/79)
/// allows 3. One fresh-clone CI run flagged nothing at 10 a side (every metric of
/// `checksum` had 4 or more pairs out of order). With 15 a side it allows 25: one or
/// two such runs.
const RUNS_FOR_2X: usize = 15;

#[test]
fn a_two_times_slower_function_is_flagged_alone() {
    let _serial = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = interleaved(dir.path(), RUNS_FOR_2X, &[("PROOF_SLOW", "1")]);
    let (base, head) = (
        side(dir.path(), "base", &a.iter().collect::<Vec<_>>()),
        side(dir.path(), "head", &b.iter().collect::<Vec<_>>()),
    );
    let out = compare(&[arg(&base), arg(&head), "--format", "json", "--fail-on-regression"]);
    let c = json(&out);
    let flagged = regressed(&c);
    assert_eq!(out.status.code(), Some(1), "{flagged:?}");
    assert!(flagged.iter().any(|(_, row, _)| row == "proof_app::checksum"), "{flagged:?}");
    // Only checksum, and what contains it: main's inclusive time and the run's wall time
    // (checksum runs on main's thread, so main's self time does not move).
    for (section, row, metric) in &flagged {
        let contains_it = row == "proof_app::main" && !metric.starts_with("self");
        assert!(
            (section == "functions_timing" && row == "proof_app::checksum") || contains_it,
            "{section} {row} {metric} in {flagged:?}"
        );
    }
    // Timings only: its calls and allocations did not change.
    assert!(flagged.iter().all(|(_, _, k)| k.ends_with("_ns") || k.starts_with("percentiles_ns.")), "{flagged:?}");
}

#[test]
fn one_extra_allocation_per_call_is_flagged_exactly_from_one_run_per_side() {
    let _serial = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = interleaved(dir.path(), 1, &[("PROOF_EXTRA_ALLOC", "1")]);
    let out = compare(&[arg(&a[0]), arg(&b[0]), "--format", "json", "--fail-on-regression"]);
    let c = json(&out);
    let flagged = regressed(&c);
    assert_eq!(out.status.code(), Some(1), "{flagged:?}");
    for (section, row, _) in &flagged {
        assert_eq!((section.as_str(), row.as_str()), ("functions_alloc", "proof_app::parse"), "{flagged:?}");
    }
    let keys: Vec<&str> = flagged.iter().map(|(_, _, k)| k.as_str()).collect();
    assert!(keys.contains(&"allocs_total") && keys.contains(&"allocs_avg"), "{keys:?}");
    let parse = c["sections"].as_array().unwrap().iter().find(|s| s["name"] == "functions_alloc").unwrap()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "proof_app::parse")
        .unwrap()
        .clone();
    let total = parse["metrics"].as_array().unwrap().iter().find(|m| m["key"] == "allocs_total").unwrap().clone();
    assert_eq!((total["method"].as_str(), total["judging"].as_str()), (Some("exact"), Some("exact")), "{total:#}");
    assert_eq!((total["base"]["median"].as_f64(), total["head"]["median"].as_f64()), (Some(200.0), Some(400.0)));
    let text = String::from_utf8_lossy(&compare(&[arg(&a[0]), arg(&b[0])]).stdout).into_owned();
    assert!(text.contains("note: single run: 1 base and 1 head run(s)") && text.contains("runs per side"), "{text}");
}

#[test]
fn budgets_fail_and_pass_as_written() {
    let _serial = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    proof::run(&report, &[]);
    let policy = dir.path().join("policy.toml");
    let write = |budgets: &str| std::fs::write(&policy, format!("[budgets]\n{budgets}")).unwrap();
    let check = |extra: &[&str]| {
        let mut args = vec!["--policy", arg(&policy), arg(&report), "--format", "json", "--fail-on-regression"];
        args.extend(extra);
        let out = compare(&args);
        (out.status.code(), json(&out))
    };
    write("\"proof_app::checksum\" = [\"p99 < 10s\", \"calls <= 20\"]\n\"proof_app::produce\" = \"alloc_bytes_per_call <= 0\"\n");
    let (code, c) = check(&[]);
    assert_eq!(code, Some(0), "{c:#}");
    assert_eq!((c["summary"]["budgets_checked"].as_u64(), c["summary"]["budgets_failed"].as_u64()), (Some(3), Some(0)));
    write("\"proof_app::checksum\" = [\"calls < 20\", \"p99 < 1ns\"]\n\"proof_app::parse\" = \"alloc_bytes_per_call <= 0\"\n\"proof_app::gone\" = \"calls <= 1\"\n");
    let (code, c) = check(&[]);
    assert_eq!(code, Some(1), "{c:#}");
    let failed: Vec<(&str, &str)> = c["budgets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["passed"] == false)
        .map(|b| (b["row"].as_str().unwrap(), b["budget"].as_str().unwrap()))
        .collect();
    assert_eq!(
        failed,
        [
            ("proof_app::checksum", "calls < 20"),
            ("proof_app::checksum", "p99 < 1ns"),
            ("proof_app::gone", "calls <= 1"),
            ("proof_app::parse", "alloc_bytes_per_call <= 0"),
        ]
    );
    // With a baseline, the budgets are checked on head beside the comparison.
    let base = dir.path().join("base.json");
    proof::run(&base, &[]);
    let out = compare(&["--policy", arg(&policy), arg(&base), arg(&report), "--fail-on-regression"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("- 4 budgets checked, 4 failed") && text.contains("Result: BUDGET FAILED"), "{text}");
}
