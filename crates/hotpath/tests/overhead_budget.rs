//! The overhead budget (`HOTPATH_OVERHEAD_BUDGET`) on `case_budget`
//! (`tests/programs/budget.rs`): counts stay exact, sampled figures are estimates with
//! their rate and 95% interval, the table marks them, a static rate wins, and the
//! engine's own accounting of its CPU share is reported.
//!
//! The statistical checks run a release build of the example (built once here, into
//! this target directory): a debug build's guard costs as much as the work units, so
//! the known split would measure the debug guard rather than the estimator.
#![cfg(feature = "hotpath")]

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use common::{command, json_report, row, run, stderr, stdout};

/// `target/release/examples/case_budget`, built on first use.
fn release_example() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = Command::new(cargo)
                .args(["build", "--release", "--quiet", "-p", "hotpath", "--example", "case_budget"])
                .args(["--features", "hotpath"])
                .status()
                .expect("cargo runs");
            assert!(status.success(), "release build of case_budget failed");
            let debug = common::example("case_budget");
            let target = debug.ancestors().nth(3).expect("target dir").to_path_buf();
            target.join("release").join("examples").join("case_budget")
        })
        .clone()
}

/// One run at a time: these tests measure wall time on a 2-core machine, where a
/// second run beside them is load they would measure.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn release_run(args: &[&str], env: &[(&str, &str)]) -> serde_json::Value {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let mut cmd = Command::new(release_example());
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("HOTPATH_")) {
        cmd.env_remove(key);
    }
    cmd.env("HOTPATH_METRICS_SERVER_OFF", "1").args(args).envs(env.iter().copied());
    let out = cmd.output().expect("case_budget runs");
    assert!(out.status.success(), "{}", stderr(&out));
    json_report(&out)
}

fn num(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2] + v[(v.len() - 1) / 2]) / 2.0
}

/// 20 runs of 60,000 `parent` calls at budget 1%, with the shadow totals on (what
/// exact timing measured in the same run, for every call).
///
/// Why these assertions cannot flake:
/// - Counts are exact in every run (deterministic).
/// - heavy : light = 3 : 1 is known from iteration counts, but the wall time a unit
///   takes is not: on a loaded 2-core machine a preemption of several ms lands in some
///   call, and even exact timing of one run moves off 3:1 by several percent
///   (measured: up to 7.9% at load average 8). So the split is asserted on the median
///   of the 20 runs, which a disturbed minority (up to 9 runs) cannot move; each run's
///   sampling error on these two totals is about 1%.
/// - Intervals: each estimated total's and parent's self time's 95% interval is
///   checked against the same run's truth (shadow totals; parent's true self time is
///   its shadow total minus heavy's and light's, its only callees). Pooled over the
///   20 runs (100 intervals), at the nominal 95% a share below 90% has probability
///   P(Bin(100, 0.95) < 90) = 1.1%. Preemptions that fall in untimed calls made the
///   plain Horvitz–Thompson intervals under-cover (73 of 100 at load average 5), so
///   each interval also allows for one longest-timed-call being missed
///   (`functions/estimate.rs`); with it, 40 of 40 held at the same load.
/// - Parent's self share (2 of 6 units) is not asserted within ±5% per run: with its
///   children timed independently at about 1/2, its estimate's spread is tens of
///   percent over 60,000 calls (docs/ARCHITECTURE.md, Overhead budget: the price of
///   per-site rates); its interval says so and is checked above.
#[test]
fn split_is_estimated_without_bias_and_intervals_cover_the_truth() {
    let n = 60_000u64;
    let mut ratios = Vec::new();
    let (mut inside, mut intervals) = (0, 0);
    for _ in 0..20 {
        let report = release_run(
            &["split", &n.to_string()],
            &[("HOTPATH_OVERHEAD_BUDGET", "1%"), ("HOTPATH_OVERHEAD_BUDGET_SHADOW", "1")],
        );
        let get = |name: &str| row(&report, &format!("case_budget::{name}")).clone();
        let (parent, heavy, light, unit) = (get("parent"), get("heavy"), get("light"), get("unit"));
        for (r, calls) in [(&parent, n), (&heavy, n), (&light, n), (&unit, 4 * n)] {
            assert_eq!(r["calls"], calls, "counts are exact: {r:#}");
        }
        assert!(num(&unit["timed_calls"]) < num(&unit["calls"]), "the hot site is sampled: {unit:#}");
        for r in [&parent, &heavy, &light, &unit] {
            let Some(e) = r.get("estimate") else { continue };
            let (ci, truth) = (&e["total_ns_ci95"], num(&e["shadow_total_ns"]));
            assert!(num(&ci[0]) <= num(&r["total_ns"]) && num(&r["total_ns"]) <= num(&ci[1]), "{r:#}");
            assert!(num(&e["rate"]) > 0.0 && num(&e["rate"]) <= 1.0);
            intervals += 1;
            inside += usize::from(num(&ci[0]) <= truth && truth <= num(&ci[1]));
        }
        ratios.push(num(&heavy["total_ns"]) / num(&light["total_ns"]));
        let shadow =
            |r: &serde_json::Value| r.get("estimate").map_or(num(&r["total_ns"]), |e| num(&e["shadow_total_ns"]));
        if let Some(e) = parent.get("estimate") {
            let truth = shadow(&parent) - shadow(&heavy) - shadow(&light);
            let ci = &e["self_ns_ci95"];
            intervals += 1;
            inside += usize::from(num(&ci[0]) <= truth && truth <= num(&ci[1]));
        }
        let overhead = &report["meta"]["overhead"];
        assert_eq!(num(&overhead["budget"]), 0.01);
        assert!(num(&overhead["profiler_overhead_ratio"]) > 0.0, "{overhead}");
    }
    let ratio = median(ratios.clone());
    assert!((ratio / 3.0 - 1.0).abs() <= 0.05, "heavy:light {ratio} (runs {ratios:?})");
    assert!(intervals >= 20, "estimates in every run: {intervals}");
    assert!(inside * 10 >= intervals * 9, "{inside} of {intervals} intervals hold the shadow total");
}

/// 10^8 calls of a function of a few nanoseconds at budget 1%: counts exact, most
/// calls untimed, and the engine's accounting reported. The total share cannot be 1%
/// here: counting every call (exact counts) costs about 3 ns, a third or more of such a
/// function; the report says so (`counting_floor_ratio`).
#[test]
fn a_tiny_function_is_counted_exactly_and_its_counting_floor_reported() {
    let report = release_run(&["tiny", "100000000"], &[("HOTPATH_OVERHEAD_BUDGET", "1%")]);
    let tiny = row(&report, "case_budget::tiny");
    assert_eq!(tiny["calls"], 100_000_000u64);
    let timed = num(&tiny["timed_calls"]);
    assert!(timed < 1e8 / 8.0, "most calls untimed: {timed}");
    let o = &report["meta"]["overhead"];
    let (ratio, floor) = (num(&o["profiler_overhead_ratio"]), num(&o["counting_floor_ratio"]));
    assert!(floor > 0.0 && ratio >= floor && ratio < 1.0, "{o}");
    // What timing took above the floor is not asserted: the calls before the first
    // decision (5 ms after the start, later when the machine is loaded and the thread
    // waits for a core) are all timed. docs/PERFORMANCE.md has the measured shares.
    assert!(num(&o["timed_call_ns"]) > num(&o["untimed_call_ns"]), "{o}");
}

/// The table marks estimates; a bad budget is a warning and no budget; a static
/// functions rate wins over the budget (debug build: behaviour, not figures).
#[test]
fn table_marks_bad_values_warn_and_static_rates_win() {
    let out = run(command("case_budget")
        .args(["split", "3000"])
        .env("HOTPATH_OVERHEAD_BUDGET", "1%")
        .env("HOTPATH_OUTPUT_FORMAT", "table"));
    let text = stdout(&out);
    assert!(text.contains("[hotpath] overhead budget 1.00%: the profiler took ≈"), "{text}");
    if text.contains(" timed)") {
        assert!(text.contains("≈: estimated from the timed calls under the overhead budget"), "{text}");
        assert!(text.contains(" ±"), "{text}");
    }

    let out = run(command("case_budget").args(["split", "200"]).env("HOTPATH_OVERHEAD_BUDGET", "lots"));
    let err = stderr(&out);
    assert!(err.contains("HOTPATH_OVERHEAD_BUDGET=\"lots\" is not a share of CPU time"), "{err}");
    assert!(json_report(&out)["meta"].get("overhead").is_none());

    let out = run(command("case_budget")
        .args(["split", "2000"])
        .env("HOTPATH_OVERHEAD_BUDGET", "1%")
        .env("HOTPATH_FUNCTIONS_TIME_SAMPLING_RATE", "0.5"));
    let report = json_report(&out);
    assert_eq!(report["meta"]["time_sampling"]["functions"], 0.5);
    let unit = row(&report, "case_budget::unit");
    assert!(unit.get("estimate").is_none(), "the static rate's ratio estimate, not the budget's: {unit:#}");
    assert!(num(&unit["timed_calls"]) < num(&unit["calls"]));
}
