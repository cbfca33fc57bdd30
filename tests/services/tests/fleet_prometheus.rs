//! A fleet watched by a real Prometheus: three `fleet_case` processes with shares 1, 2
//! and 3 of a known work, scraped on loopback every second by `prometheus` (Debian's
//! package, the one scripts/test installs for promtool) run with the repository's own
//! monitoring/prometheus.yml (intervals set to 1s and the three targets filled in,
//! nothing else changed) and its rules. Prometheus's HTTP API must then say what the
//! processes say: the fleet's calls add up to the processes' reports, the fleet's p99
//! lies in the bucket of the true p99, and every recording rule and every dashboard
//! panel returns data. Everything started here is stopped when the test ends, and ends by
//! itself after 5 minutes should the test be killed first.
//!
//! Without `prometheus` the test is skipped, unless HOTPATH_TEST_SUITE is set
//! (scripts/test sets it): there a missing server is a failure.
#![cfg(feature = "profile")]

mod fleet;

use std::path::Path;

use fleet::{bucket_of, Fleet, Prometheus};

/// Shares of the work (`fleet_case` calls `work` 100 × share times).
const SHARES: [u64; 3] = [1, 2, 3];

#[test]
fn three_processes_scraped_by_prometheus_add_up() {
    let Some(binary) = fleet::prometheus_binary() else { return };
    let dir = fleet::scratch();
    let go = dir.join("go");
    let fleet = Fleet::start(&SHARES, &go);
    let monitoring = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../monitoring");
    let prometheus = Prometheus::start(&binary, &monitoring, &dir, &fleet.addresses());

    // Every process's `work` series scraped twice before the work starts.
    let work = fleet.work_function();
    let selector = format!("hotpath_function_duration_seconds_count{{function=\"{work}\"}}");
    prometheus.wait_for("two scrapes of every process", |p| {
        let counts = p.query(&format!("count_over_time({selector}[5m])"));
        counts.len() == SHARES.len() && counts.iter().all(|(_, v)| *v >= 2.0)
    });
    std::fs::write(&go, b"go").unwrap();
    fleet.wait_done();
    // Two scrapes (and a rule evaluation) after every process finished.
    let done = fleet::unix_now();
    prometheus.wait_for("two scrapes after the work", |p| {
        let last = p.query(&format!("timestamp({selector})"));
        let rules = p.query("timestamp(job:hotpath_function_calls:rate1m)");
        last.len() == SHARES.len()
            && last.iter().all(|(_, t)| *t > done + 1.0)
            && rules.iter().any(|(_, t)| *t > done + 1.0)
    });

    // Each process's own report against the series Prometheus holds for it.
    let reports = fleet.reports(&work);
    let total: f64 = reports.iter().map(|r| r.calls).sum();
    let per_instance = prometheus.query(&selector);
    assert_eq!(per_instance.len(), SHARES.len());
    for report in &reports {
        let (labels, value) = per_instance.iter().find(|(l, _)| l["instance"] == report.address).unwrap();
        assert_eq!(*value, report.calls, "{}: Prometheus has the process's own count", report.address);
        // HOTPATH_METRICS_LABELS leads every series, beside Prometheus's own labels.
        assert_eq!((labels["service"].as_str(), labels["zone"].as_str()), (Some("fleet"), Some("test")), "{labels}");
    }
    // The same bucket bounds in every process: each `le` is in all three.
    let bounds =
        prometheus.query(&format!("count by (le) (hotpath_function_duration_seconds_bucket{{function=\"{work}\"}})"));
    assert_eq!(bounds.len(), 10, "ten bounds, +Inf included: {bounds:?}");
    assert!(bounds.iter().all(|(_, n)| *n == SHARES.len() as f64), "{bounds:?}");
    let summed = prometheus.query(&format!("sum without (instance) ({selector})"));
    assert_eq!(summed.len(), 1, "one fleet series: {summed:?}");
    assert_eq!(summed[0].1, total, "the fleet's calls are the sum of the processes' reports");

    // The fleet's call rate: over a window holding every sample, Prometheus's increase
    // is the processes' counted calls (every one but the call before the start, which
    // the first samples hold), plus at most one scrape interval of extrapolation at
    // each end of each series.
    let window = "10m";
    let series = prometheus.samples(&format!("{selector}[{window}]"));
    assert_eq!(series.len(), SHARES.len());
    let first: f64 = series.iter().map(|s| s[0].1).sum();
    assert_eq!(first, SHARES.len() as f64, "the first samples hold the call before the start");
    let counted = total - first;
    assert_eq!(counted, SHARES.iter().map(|s| (s * 100) as f64).sum::<f64>(), "the known work split");
    let span = series.iter().map(|s| s[s.len() - 1].0 - s[0].0).fold(f64::INFINITY, f64::min);
    let increase = prometheus.query(&format!("sum(increase({selector}[{window}]))"))[0].1;
    let slack = counted * 2.0 * 1.1 * fleet::SCRAPE_SECONDS / span;
    assert!(
        increase >= counted - 1e-9 && increase <= counted + slack,
        "fleet increase {increase} vs the processes' {counted} (+{slack} for one scrape interval at each end)"
    );

    // The fleet's p99 of `work`: 2% of calls sleep 20 ms, so the true p99 is a slow call;
    // the estimate must lie in the bucket that holds it (the histogram's stated error),
    // as every process's own p99 (0.8% error) does.
    let p99 = prometheus.query(&format!("job:hotpath_function_duration_seconds:p99_rate1m{{function=\"{work}\"}}"));
    assert_eq!(p99.len(), 1, "{p99:?}");
    let estimate = p99[0].1;
    assert!(estimate.is_finite() && estimate >= 0.01, "fleet p99 {estimate} s");
    for report in &reports {
        assert!(report.p99_seconds >= 0.02, "{}: own p99 {} s holds a slow call", report.address, report.p99_seconds);
        assert_eq!(bucket_of(estimate), bucket_of(report.p99_seconds), "fleet p99 {estimate} s, {report:?}");
    }

    // Every recording rule returns series (once evaluated over two scrapes of the
    // series it reads), and every rule evaluates without error.
    let rules = prometheus.rules();
    assert!(rules.iter().filter(|r| r.recording).count() >= 11, "{rules:?}");
    assert!(rules.iter().all(|r| r.health == "ok"), "{rules:?}");
    let recorded: Vec<String> = rules.iter().filter(|r| r.recording).map(|r| r.name.clone()).collect();
    prometheus.wait_until("every recording rule has series", |p| fleet::no_data(p, &recorded));

    // Every panel of the dashboard shows data.
    let queries = fleet::dashboard_queries(&monitoring);
    assert!(queries.len() >= 14, "{queries:?}");
    prometheus.wait_until("every dashboard panel has data", |p| fleet::no_data(p, &queries));
    drop((prometheus, fleet));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's scrape lines ("Watch a fleet") are the shipped config's, verbatim: the
/// file the test above runs.
#[test]
fn readme_scrape_lines_are_the_shipped_config() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let after = readme.split_once("<!-- recipe:fleet-scrape").expect("README has the recipe:fleet-scrape block").1;
    let block = after.split_once("```yaml\n").unwrap().1.split_once("```").unwrap().0;
    assert!(block.lines().count() >= 3, "{block}");
    let shipped = std::fs::read_to_string(root.join("monitoring/prometheus.yml")).unwrap();
    assert!(shipped.contains(block), "monitoring/prometheus.yml does not hold the README's lines:\n{block}");
}
