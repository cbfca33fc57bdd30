//! Native histograms across a fleet, checked by a real Prometheus: the fleet test's
//! three `fleet_case` processes (shares 1, 2 and 3 of a known work) scraped on loopback
//! by `prometheus --enable-feature=native-histograms`, which asks `/metrics` for the
//! protobuf format and keeps `hotpath_function_duration_seconds` as one native series
//! per process. Prometheus must then hold each process's own count, and
//! `histogram_quantile(0.99, sum(rate(...)))` over the three series must lie within the
//! stated error of the true p99 of the fleet, and the shipped recording rules and
//! dashboard panels (which read the classic series or the native one) return data.
//!
//! The true p99 comes from recorded values, never from wall time: each process reports
//! its own p99 on its JSON endpoint, and a quantile of a mixture lies between the
//! quantiles of its parts (below the least of them, every part has less than 99% of
//! its calls; at the greatest, every part has at least 99%). That holds whatever weight
//! each process gets in the sum (rate's extrapolation differs a little per series), so
//! the check does not depend on the machine's load, only its tightness does: the slow
//! calls are 20 ms sleeps, a few tenths of a percent apart on a quiet machine.
//!
//! Without `prometheus` the test is skipped, unless HOTPATH_TEST_SUITE is set.
#![cfg(feature = "profile")]

// Each test binary uses part of the helpers.
#[allow(dead_code)]
mod fleet;

use std::path::Path;
use std::time::Instant;

use fleet::{Fleet, Prometheus};

/// Shares of the work (`fleet_case` calls `work` 100 × share times, 2% of them slow).
const SHARES: [u64; 3] = [1, 2, 3];
/// A quantile from the native buckets against the recorded value: the recorder's
/// bucket (0.79%) plus the native bucket at schema 8 (0.27%), rounded up (README,
/// "Watch a fleet"; `hotpath_model::EXPONENTIAL_SCHEMA`).
const STATED_ERROR: f64 = 0.011;

#[test]
fn native_histogram_quantile_across_three_processes() {
    let Some(binary) = fleet::prometheus_binary() else { return };
    let started = Instant::now();
    let dir = fleet::scratch();
    let go = dir.join("go");
    let fleet = Fleet::start(&SHARES, &go);
    let monitoring = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../monitoring");
    let native = ["--enable-feature=native-histograms"];
    let prometheus = Prometheus::start_with(&binary, &monitoring, &dir, &fleet.addresses(), &native);

    // Every process's `work` is a native series (histogram_count reads only those)
    // before the work starts: its first sample holds the one call before the start.
    let work = fleet.work_function();
    let series = format!("hotpath_function_duration_seconds{{function=\"{work}\"}}");
    prometheus
        .wait_for("a native sample of every process", |p| p.query(&format!("histogram_count({series})")).len() == 3);
    std::fs::write(&go, b"go").unwrap();
    fleet.wait_done();
    // A scrape of every process more than a snapshot's life after the work.
    let done = fleet::unix_now();
    prometheus.wait_for("a scrape of every process after the work", |p| {
        let last = p.query("timestamp(up)");
        last.len() == SHARES.len() && last.iter().all(|(_, t)| *t > done + 1.0)
    });

    // Each process's native series holds its own count.
    let reports = fleet.reports(&work);
    let counts = prometheus.query(&format!("histogram_count({series})"));
    assert_eq!(counts.len(), SHARES.len(), "{counts:?}");
    for report in &reports {
        let (labels, count) = counts.iter().find(|(l, _)| l["instance"] == report.address).unwrap();
        assert_eq!(*count, report.calls, "{}: the native series has the process's own count", report.address);
        assert_eq!((labels["service"].as_str(), labels["zone"].as_str()), (Some("fleet"), Some("test")), "{labels}");
    }

    // Only the native series is stored (README: the `_bucket` and `_count` rules need the
    // classic series, which Prometheus drops when the flag is on).
    for classic in ["_bucket", "_count", "_sum"] {
        let found = prometheus.query(&format!("hotpath_function_duration_seconds{classic}{{function=\"{work}\"}}"));
        assert!(found.is_empty(), "{classic}: {found:?}");
    }

    // The fleet's p99 over a window holding every sample (the README's query uses 1m;
    // a loaded machine may take longer than that between the first scrape and now).
    let window = started.elapsed().as_secs() + 30;
    let query = format!("histogram_quantile(0.99, sum(rate({series}[{window}s])))");
    let estimate = prometheus.query(&query);
    assert_eq!(estimate.len(), 1, "{query}: {estimate:?}");
    let estimate = estimate[0].1;
    // The true p99 lies between the processes' own p99s (each a slow call).
    let own: Vec<f64> = reports.iter().map(|r| r.p99_seconds).collect();
    let low = own.iter().copied().fold(f64::INFINITY, f64::min);
    let high = own.iter().copied().fold(0.0, f64::max);
    assert!(low >= 0.02, "every process's p99 is a slow call: {reports:?}");
    eprintln!("fleet p99 from native buckets {estimate} s; the processes' own p99s {own:?}");
    assert!(
        estimate >= low * (1.0 - STATED_ERROR) && estimate <= high * (1.0 + STATED_ERROR),
        "{query} = {estimate} s, not within {STATED_ERROR} of the true p99 in [{low}, {high}] s ({reports:?})"
    );

    // The shipped rules read the classic series or the native one: with the flag on,
    // every recording rule and every dashboard panel still returns data.
    let rules = prometheus.rules();
    assert!(rules.iter().all(|r| r.health == "ok"), "{rules:?}");
    let recorded: Vec<String> = rules.iter().filter(|r| r.recording).map(|r| r.name.clone()).collect();
    assert!(recorded.len() >= 11, "{rules:?}");
    prometheus.wait_until("every recording rule has series from native histograms", |p| fleet::no_data(p, &recorded));
    let panels = fleet::dashboard_queries(&monitoring);
    prometheus.wait_until("every dashboard panel has data from native histograms", |p| fleet::no_data(p, &panels));
    drop((prometheus, fleet));
    let _ = std::fs::remove_dir_all(&dir);
}
