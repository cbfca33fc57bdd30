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

use std::process::Command;

use common::budget::{median, num, release_example, release_run, ONE_AT_A_TIME};
use common::{command, json_report, row, run, stderr, stdout};

/// 20 runs of 40,000 `parent` calls (work units of 6,000 iterations) at budget 1%,
/// with the shadow totals on: what exact timing measured in the same run, for every
/// call, timed or not. Shadow mode also makes the clock each thread's CPU time
/// (`clock::use_thread_cpu`), so a call's duration leaves out the milliseconds its
/// thread waits for a core on a loaded machine: with wall time, whether such a wait
/// fell in a timed or an untimed call moved an estimate by more than its sampling
/// error (the first version of this test failed 2 runs in 8 at load average 5).
/// Every comparison is between an estimate and the same run's truth; none is on a
/// duration. Each run has its own sampling seed (`HOTPATH_SAMPLING_SEED` = the run's
/// index), so the 40 runs are independent samples of the estimator. With one seed for
/// all (the default, for reproducible runs) they timed nearly the same calls and one
/// realization's error came back run after run: parent's total sat 0.9 of its
/// interval's standard error low on average over 30 runs, and the pooled coverage was
/// 87 of 100 in one CI run.
///
/// Why the assertions hold with overwhelming probability for a correct estimator:
/// - Counts are exact in every run (deterministic).
/// - heavy : light is asserted on the median over the 40 runs of each run's error
///   against its own shadow ratio. Under the shadow a timed call costs about 1.5 µs
///   (two thread-CPU clock system calls), 60 times what it does on the TSC, so the
///   budget's rates here are about 1/8 to 1/20 and a run's ratio rests on a few
///   thousand timed calls: its error's sd was 7.6-8.3% over 120 runs of 20,000 calls
///   (a seed per run; tails to -29% and +19%) and 6.8% over 30 runs of 40,000.
///   Resampling 20 runs, the median misses ±5% in 1.4% of draws at 20,000 calls, hence
///   40,000 (0.01% from those 30 runs; a normal model with the median's sd,
///   1.25 · 6.8% / sqrt(20) = 1.9%, puts it near 0.9%; with 40 runs the sd is 1.3%).
/// - Intervals: the 95% intervals of the four totals and of parent's self time (its
///   truth: its shadow total minus heavy's and light's, its only callees), pooled
///   over the 40 runs (200 intervals), must hold their truth at least 180 times
///   (issue 28: in at least 90% of 20 runs; 40 runs, because at the intervals' true
///   coverage, about 95%, a bar of 90 in 100 is 2.5 standard deviations away and
///   failed a CI run on 2026-12-04 with 85, where 180 in 200 is 3.1 away). Measured
///   2026-12-04 (idle): 92 of 100, then 189 and 193 of 200. Earlier, with a seed per
///   run: 192 and 193 of 200 (two batches of 40 runs, idle machine; each series' error over its
///   interval's standard error had mean -0.45 to +0.15 and sd 0.86 to 1.20), and
///   187 of 200 with another process spinning on one of the two cores (those at
///   20,000 calls; 145 of 150 over 30 runs at 40,000). Resampling
///   20 runs from those 120 fails the bar in 1.2% of draws (0.24% from the idle ones
///   alone, 7.8% from the loaded ones): the other tests of this file never run beside
///   a truth run (`ONE_AT_A_TIME`).
/// - Parent's self share (its self time over its total, both estimated; truth: its
///   shadow self over its shadow total) is within ±5% of the same run's truth in at
///   least 36 of the 40 runs, and in the median. A parent timed at a rate below 1 has
///   its direct children timed in those calls (the thread's `FORCE` mode), so its
///   timed calls' self times are exact and the share is a ratio of two sums over the
///   same timed calls. Measured over 20 runs at load average 1: sd 1.2%, none beyond
///   ±5% (before the forcing: 13% median error, 7 of 20 beyond even for the median's
///   sake). A run beyond ±5% is 4 sd out: P(5 or more of 40) is below 1e-6 for a
///   normal model; thread CPU time in a VM has heavier tails, hence 36 of 40, not 40.
#[test]
fn split_is_estimated_without_bias_and_intervals_cover_the_truth() {
    let n = 40_000u64;
    let (mut errors, mut share_errors) = (Vec::new(), Vec::new());
    let (mut inside, mut intervals) = (0, 0);
    for run in 0..40 {
        let report = release_run(
            &["split", &n.to_string(), "6000"],
            &[
                ("HOTPATH_OVERHEAD_BUDGET", "1%"),
                ("HOTPATH_OVERHEAD_BUDGET_SHADOW", "1"),
                ("HOTPATH_SAMPLING_SEED", &run.to_string()),
            ],
        );
        assert_eq!(report["meta"]["clock"], "thread_cpu", "{:#}", report["meta"]);
        let get = |name: &str| row(&report, &format!("case_budget::{name}")).clone();
        let (parent, heavy, light, unit) = (get("parent"), get("heavy"), get("light"), get("unit"));
        for (r, calls) in [(&parent, n), (&heavy, n), (&light, n), (&unit, 4 * n)] {
            assert_eq!(r["calls"], calls, "counts are exact: {r:#}");
        }
        assert!(num(&unit["timed_calls"]) < num(&unit["calls"]), "the hot site is sampled: {unit:#}");
        let shadow =
            |r: &serde_json::Value| r.get("estimate").map_or(num(&r["total_ns"]), |e| num(&e["shadow_total_ns"]));
        for r in [&parent, &heavy, &light, &unit] {
            let Some(e) = r.get("estimate") else { continue };
            let ci = &e["total_ns_ci95"];
            assert!(num(&ci[0]) <= num(&r["total_ns"]) && num(&r["total_ns"]) <= num(&ci[1]), "{r:#}");
            assert!(num(&e["rate"]) > 0.0 && num(&e["rate"]) <= 1.0);
            intervals += 1;
            inside += usize::from(num(&ci[0]) <= shadow(r) && shadow(r) <= num(&ci[1]));
        }
        if let Some(e) = parent.get("estimate") {
            let truth = shadow(&parent) - shadow(&heavy) - shadow(&light);
            let ci = &e["self_ns_ci95"];
            intervals += 1;
            inside += usize::from(num(&ci[0]) <= truth && truth <= num(&ci[1]));
        }
        let truth_share = (shadow(&parent) - shadow(&heavy) - shadow(&light)) / shadow(&parent);
        share_errors.push(num(&parent["self_ns"]) / num(&parent["total_ns"]) / truth_share - 1.0);
        let estimated = num(&heavy["total_ns"]) / num(&light["total_ns"]);
        errors.push(estimated / (shadow(&heavy) / shadow(&light)) - 1.0);
        let overhead = &report["meta"]["overhead"];
        assert_eq!(num(&overhead["budget"]), 0.01);
        assert!(num(&overhead["profiler_overhead_ratio"]) > 0.0, "{overhead}");
    }
    let error = median(errors.clone());
    assert!(error.abs() <= 0.05, "heavy:light off its shadow by {error} (runs {errors:?})");
    assert!(intervals >= 40, "estimates in every run: {intervals}");
    assert!(inside >= intervals * 90 / 100, "{inside} of {intervals} intervals hold the shadow total");
    let share = median(share_errors.clone());
    let close = share_errors.iter().filter(|e| e.abs() <= 0.05).count();
    assert!(share.abs() <= 0.05 && close >= 36, "parent's self share off by {share} (runs {share_errors:?})");
    eprintln!("coverage {inside}/{intervals}; heavy:light median error {error}; self share median {share}, {close} of 40 within 5%");
}

/// 10^8 calls of a function of about 10 ns at budget 1%: counts exact, most calls
/// untimed, and the engine's accounting reported. The engine's figures are the
/// calibrated costs of its paths run back to back (about 2 ns an untimed call), an
/// upper bound: in this latency-bound function the core runs most of the untimed
/// path in the shadow of the function's own chain, and `scripts/bench budget`
/// measures the real share with getrusage (docs/PERFORMANCE.md). The test does not
/// assert a share: the calls before the first decision are all timed.
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
    // waits for a core) are all timed.
    assert!(num(&o["timed_call_ns"]) > num(&o["untimed_call_ns"]), "{o}");
}

/// Before the budget's first decision (its thread starts 5 ms in, and a run this short
/// never has it) a site called more than exact timing can pay for is timed at 1/16: 2,000
/// calls at 1% and 25 ns a timed call. Every call of 100k was timed before.
#[test]
fn a_hot_site_is_sampled_before_the_first_decision() {
    let report = release_run(&["tiny", "100000"], &[("HOTPATH_OVERHEAD_BUDGET", "1%")]);
    let tiny = row(&report, "case_budget::tiny");
    assert_eq!(tiny["calls"], 100_000u64);
    // About 2,000 + 98,000 / 16 = 8,100; a later decision only lowers it.
    let timed = num(&tiny["timed_calls"]);
    assert!((500.0..25_000.0).contains(&timed), "{tiny:#}");
    assert!(num(&tiny["estimate"]["rate"]) < 0.25, "{tiny:#}");
}

/// A cold site stays exact in a mostly idle program (100 calls, 10 ms apart): the
/// budget's thread wakes up for its decisions at a cost no rate lowers (tens of µs of
/// CPU each), which at 1% of an idle program's CPU took the whole budget, and every
/// site fell to the lowest rate.
#[test]
fn a_cold_site_stays_exact_in_an_idle_program() {
    let report = release_run(&["cold", "100"], &[("HOTPATH_OVERHEAD_BUDGET", "1%")]);
    let cold = row(&report, "case_budget::cold");
    assert_eq!(cold["calls"], 100u64);
    assert!(cold.get("timed_calls").is_none() && cold.get("estimate").is_none(), "every call timed: {cold:#}");
    let o = &report["meta"]["overhead"];
    let (ratio, thread) = (num(&o["profiler_overhead_ratio"]), num(&o["thread_ratio"]));
    assert!((0.0..=ratio).contains(&thread), "the thread's decisions are a part of the ratio: {o}");
}

/// The table marks estimates; a bad budget is a warning and no budget; a static
/// functions rate wins over the budget (debug build: behaviour, not figures).
#[test]
fn table_marks_bad_values_warn_and_static_rates_win() {
    // Not beside a truth test's run: load moves the budget's decisions there.
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
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
    assert!(err.contains("HOTPATH_OVERHEAD_BUDGET=\"lots\" expects a share of CPU time"), "{err}");
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

/// 1M rounds of every other timed instrument at budget 1%, each hot enough (about
/// 1.5M operations a second) for the budget to lower its rate: counts stay exact, each
/// instrument's durations are estimated with their rate and intervals, and the
/// weights are unbiased: the count the timed operations stand for (Σ 2^k over them)
/// matches the exact count (a channel's received messages, a future's calls, a lock's
/// hold samples: one acquisition in 16). Counting, not timing: with 1M candidates and
/// weights up to 2^10 its standard error is about 1.5% at worst; the bound is 10%.
/// A static rate set beside the budget wins for its instrument.
#[test]
fn the_other_instruments_are_sampled_under_the_one_budget() {
    let report = release_run(&["instruments", "1000000", "20"], &[("HOTPATH_OVERHEAD_BUDGET", "1%")]);
    let near = |estimated: f64, exact: f64, what: &str| {
        assert!((estimated / exact - 1.0).abs() < 0.1, "{what}: {estimated} stands for {exact}");
    };
    let estimated = |stats: &serde_json::Value, what: &str| {
        let e = &stats["estimate"];
        let rate = num(&e["rate"]);
        assert!(rate > 0.0 && rate < 1.0 && num(&e["min_rate"]) <= rate, "{what}: {stats:#}");
        let [low, high] = [num(&e["total_ns_ci95"][0]), num(&e["total_ns_ci95"][1])];
        assert!(low <= num(&stats["total_ns"]) && num(&stats["total_ns"]) <= high, "{what}: {stats:#}");
        num(&stats["count"])
    };
    for row in report["mutexes"]["rows"].as_array().expect("mutex rows") {
        assert_eq!(row["lock"]["acquisitions"], 1_000_000u64, "{row:#}");
        near(estimated(&row["lock"]["hold"], "hold"), 1e6 / 16.0, "hold samples");
    }
    let pipe = &report["channels"]["rows"][0];
    assert_eq!((&pipe["sent"], &pipe["received"]), (&1_000_000u64.into(), &1_000_000u64.into()));
    near(estimated(&pipe["latency"], "latency"), 1e6, "latency");
    for row in report["futures"]["rows"].as_array().expect("future rows") {
        assert_eq!((&row["calls"], &row["polls"]), (&1_000_000u64.into(), &1_000_000u64.into()), "{row:#}");
        assert!(num(&row["timed_calls"]) < 1e6, "{row:#}");
        near(estimated(&row["wall"], "wall"), 1e6, "future calls");
    }
    let write = &report["io"]["rows"][0]["write"];
    assert_eq!((&write["ops"], &write["bytes"]), (&1_000_000u64.into(), &1_000_000u64.into()));
    let e = &write["estimate"];
    assert!(num(&e["rate"]) < 1.0 && num(&write["timed_ops"]) < 1e6, "{write:#}");
    assert!(num(&e["total_ns_ci95"][0]) <= num(&e["total_ns_ci95"][1]), "{write:#}");

    let report = release_run(
        &["instruments", "300000", "20"],
        &[("HOTPATH_OVERHEAD_BUDGET", "1%"), ("HOTPATH_MUTEXES_TIME_SAMPLING_RATE", "0.5")],
    );
    for row in report["mutexes"]["rows"].as_array().expect("mutex rows") {
        assert!(row["lock"]["hold"].get("estimate").is_none(), "the static rate wins: {row:#}");
    }
    assert!(report["channels"]["rows"][0]["latency"].get("estimate").is_some());
}

/// Lock holds, channel latency, futures' wall time and `io!` writes against the same
/// run's truth: 20 runs of `instruments 200000 20` at budget 1% with the shadow totals
/// on (each operation the budget leaves untimed is timed anyway, into a sum only tests
/// read), so every comparison is between an estimate and its own run's truth, never on
/// a duration.
///
/// Each run has its own sampling seed (`HOTPATH_SAMPLING_SEED`), so the runs are
/// independent samples of the estimator. Under the shadow the clock is each thread's
/// CPU time, whose reads cost more, so the budget lowers rates further (down to 1/4096
/// for a while) and a few heavily weighted operations carry each estimate: per-series
/// errors are wide (sd 3-14%).
/// - The 95% intervals hold their truth in at least 80% of the 120 series (20 runs ×
///   two locks' holds, one channel's latency, two futures and one `io!` sink's
///   writes). Measured over 40 idle runs, per series: 38, 39, 39, 39, 39 and 38 of 40.
///   At a true coverage of 0.93, P(Bin(120, 0.93) < 96) is below 1e-6; intervals two
///   times too narrow (coverage near 0.66) fail it. The `io!` estimate before this
///   one (the timed operations' mean times all, with the rates changing during the
///   run) held its truth in 14 of 20.
/// - The median of the relative errors against the truth is within ±15%, a check for
///   gross bias (a weight ignored reads -95%, one applied twice +100%). Measured over
///   those 40 runs, mean error per series: heavy hold +0.7% (sd 5.3%), light hold
///   +3.1% (sd 14%), latency -0.4% (2.9%), heavy future +0.7% (3.0%), light future
///   +0.3% (3.2%), sink writes +0.9% (3.2%).
#[test]
fn instrument_estimates_center_on_the_truth_and_their_intervals_cover_it() {
    let (mut errors, mut inside, mut intervals) = (Vec::new(), 0, 0);
    for run in 0..20 {
        let report = release_run(
            &["instruments", "200000", "20"],
            &[
                ("HOTPATH_OVERHEAD_BUDGET", "1%"),
                ("HOTPATH_OVERHEAD_BUDGET_SHADOW", "1"),
                ("HOTPATH_SAMPLING_SEED", &run.to_string()),
            ],
        );
        let mut series: Vec<&serde_json::Value> =
            report["mutexes"]["rows"].as_array().expect("mutex rows").iter().map(|r| &r["lock"]["hold"]).collect();
        series.push(&report["channels"]["rows"][0]["latency"]);
        series.extend(report["futures"]["rows"].as_array().expect("future rows").iter().map(|r| &r["wall"]));
        series.push(&report["io"]["rows"][0]["write"]);
        for stats in series.into_iter().filter(|s| s.get("estimate").is_some()) {
            let e = &stats["estimate"];
            let truth = num(&e["shadow_total_ns"]);
            errors.push(num(&stats["total_ns"]) / truth - 1.0);
            intervals += 1;
            inside += usize::from(num(&e["total_ns_ci95"][0]) <= truth && truth <= num(&e["total_ns_ci95"][1]));
        }
    }
    let sorted = {
        let mut e = errors.clone();
        e.sort_by(f64::total_cmp);
        e
    };
    eprintln!("{intervals} estimated series, {inside} intervals hold the truth; errors {sorted:.4?}");
    assert!(intervals >= 80, "most series are sampled: {intervals} of 120");
    let m = median(errors);
    assert!(m.abs() < 0.15, "median error {m:.4}: {sorted:.4?}");
    assert!(inside * 100 >= intervals * 80, "{inside} of {intervals} intervals hold the truth");
}

/// `/metrics` under the budget says how far each estimated total can be trusted: the
/// share of operations timed (`…_timed_ratio`) and the 95% interval of the estimated
/// total (`…_seconds_ci95`, `bound` `lower` and `upper`), for functions (and their
/// self time), futures, channel latency, lock holds and `io!` operations. In the same
/// scrape each interval holds its series' total (the counter or the histogram's
/// `_sum`, whose buckets weigh each timed operation by the inverse of its rate), and
/// promtool accepts all of it.
#[test]
fn metrics_carry_each_estimates_rate_and_interval() {
    let families: [(&str, &[(&str, &str)]); 2] = [
        (
            "split",
            &[
                ("hotpath_function_time_seconds", "hotpath_function_time_seconds_total"),
                ("hotpath_function_self_time_seconds", "hotpath_function_self_time_seconds_total"),
            ],
        ),
        (
            "instruments",
            &[
                ("hotpath_future_duration_seconds", "hotpath_future_duration_seconds_sum"),
                ("hotpath_channel_latency_seconds", "hotpath_channel_latency_seconds_sum"),
                ("hotpath_mutex_hold_seconds", "hotpath_mutex_hold_seconds_sum"),
                ("hotpath_io_operation_seconds", "hotpath_io_operation_seconds_sum"),
            ],
        ),
    ];
    for (mode, families) in families {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
        let mut cmd = Command::new(release_example());
        for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("HOTPATH_")) {
            cmd.env_remove(key);
        }
        cmd.env("HOTPATH_METRICS_PORT", "0").env("HOTPATH_OUTPUT_FORMAT", "none");
        cmd.env("HOTPATH_OVERHEAD_BUDGET", "1%").args([mode, "1000000000", "20"]);
        let live = common::live::Live::start(cmd);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let body = loop {
            let body = live.get("/metrics", "").body;
            if families.iter().all(|(base, _)| body.contains(&format!("{base}_ci95{{"))) {
                break body;
            }
            assert!(std::time::Instant::now() < deadline, "{mode}: no estimate families in\n{body}");
            std::thread::sleep(std::time::Duration::from_millis(200));
        };
        // `name{labels} value` → (name, labels, value).
        let series: Vec<(&str, &str, f64)> = body
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let (head, value) = l.rsplit_once(' ')?;
                let (name, labels) = head.split_once('{').unwrap_or((head, "}"));
                Some((name, labels.trim_end_matches('}'), value.parse().ok()?))
            })
            .collect();
        let value = |name: &str, labels: &str| series.iter().find(|s| s.0 == name && s.1 == labels).map(|s| s.2);
        for (base, total) in families {
            let lower = format!("{base}_ci95");
            let bounded: Vec<&(&str, &str, f64)> =
                series.iter().filter(|s| s.0 == lower && s.1.ends_with(",bound=\"lower\"")).collect();
            assert!(!bounded.is_empty(), "{mode}: no {lower}");
            for (_, labels, low) in bounded {
                let row = labels.trim_end_matches(",bound=\"lower\"");
                let high = value(&lower, &format!("{row},bound=\"upper\"")).expect("an upper bound");
                let total = value(total, row).unwrap_or_else(|| panic!("{total}{{{row}}}"));
                assert!(*low <= total && total <= high, "{base}{{{row}}}: {total} outside [{low}, {high}]");
            }
            if !base.contains("self_time") {
                let ratio = base.replace("_seconds", "_timed_ratio").replace("_time_timed", "_timed");
                let rates: Vec<f64> = series.iter().filter(|s| s.0 == ratio).map(|s| s.2).collect();
                assert!(!rates.is_empty() && rates.iter().all(|r| *r > 0.0 && *r <= 1.0), "{ratio}: {rates:?}");
                assert!(rates.iter().any(|r| *r < 1.0), "{ratio}: some rows are sampled: {rates:?}");
            }
        }
        common::live::promtool_accepts(&body);
    }
}
