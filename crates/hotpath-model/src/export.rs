//! Sections as Prometheus metric families, typed: a section says which of its
//! numbers become which family, with which labels; the live server only formats
//! them. A renamed model field is a compile error here, never a silent zero.

use crate::buckets::Buckets;
use crate::stats::{DurationStats, LockTiming};

/// What a family's samples mean to Prometheus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricKind {
    /// Only goes up (totals since profiling started).
    Counter,
    /// A current value.
    Gauge,
    /// Durations in cumulative buckets, with `_sum` and `_count`, in seconds.
    Histogram,
}

impl MetricKind {
    /// The name in a `# TYPE` line.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Counter => "counter",
            Self::Gauge => "gauge",
            Self::Histogram => "histogram",
        }
    }
}

/// One value of a family: a number, or a histogram's buckets.
#[derive(Clone, Debug, PartialEq)]
pub enum Sample {
    /// A counter or gauge value, in the family's unit.
    Value(f64),
    /// Durations (nanoseconds in the model; the renderer writes seconds).
    Histogram(Buckets),
}

/// One series: its labels and its sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// `(name, value)` pairs; values are never empty.
    pub labels: Vec<(&'static str, String)>,
    /// The value.
    pub sample: Sample,
}

/// A metric family: name, help, kind and its series.
#[derive(Clone, Debug, PartialEq)]
pub struct Family {
    /// `hotpath_...`, with the unit in the name and `_total` for counters.
    pub name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// Counter, gauge or histogram.
    pub kind: MetricKind,
    /// The series, one per row (and mode or direction).
    pub series: Vec<Series>,
}

impl Family {
    /// An empty family.
    pub fn new(name: &'static str, kind: MetricKind, help: &'static str) -> Self {
        Self { name, help, kind, series: Vec::new() }
    }

    /// Adds a value series; an empty label value is replaced by `-`, which Prometheus
    /// keeps apart from a missing label.
    pub fn value(&mut self, labels: &[(&'static str, &str)], value: f64) -> &mut Self {
        self.series.push(Series { labels: owned(labels), sample: Sample::Value(value) });
        self
    }

    /// Adds a histogram series, if the section carries buckets (live snapshots do).
    pub fn histogram(&mut self, labels: &[(&'static str, &str)], buckets: Option<&Buckets>) -> &mut Self {
        if let Some(b) = buckets {
            self.series.push(Series { labels: owned(labels), sample: Sample::Histogram(b.clone()) });
        }
        self
    }
}

/// The two families that say how far an estimated figure can be trusted, for a series
/// whose durations the overhead budget timed only in part: the share of operations
/// timed (`…_timed_ratio`) and the 95% interval of the estimated total in seconds
/// (`…_seconds_ci95`, one series per `bound`, `lower` and `upper`). Rows timed whole
/// have no series in them: their figures are exact.
pub(crate) struct EstimateFamilies {
    ratio: Family,
    interval: Family,
}

impl EstimateFamilies {
    /// `ratio` and `interval` name the two families; `what` is the estimated total.
    pub(crate) fn new(ratio: &'static str, interval: &'static str, what: &'static str) -> Self {
        Self {
            ratio: Family::new(ratio, MetricKind::Gauge, "Share of operations timed under the overhead budget."),
            interval: Family::new(interval, MetricKind::Gauge, what),
        }
    }

    /// Adds a row's estimate: its timing rate and the interval of its total, in ns.
    pub(crate) fn add(&mut self, labels: &[(&'static str, &str)], rate: f64, ci95_ns: [u64; 2]) {
        self.ratio.value(labels, rate);
        interval(&mut self.interval, labels, ci95_ns);
    }

    /// Adds a duration summary's estimate, if it has one.
    pub(crate) fn add_stats(&mut self, labels: &[(&'static str, &str)], stats: &DurationStats) {
        if let Some(e) = &stats.estimate {
            self.add(labels, e.rate, e.total_ns_ci95);
        }
    }

    /// The two families.
    pub(crate) fn into_families(self) -> [Family; 2] {
        [self.ratio, self.interval]
    }
}

/// A lock kind's estimate families, of its waits and of its holds.
pub(crate) struct LockEstimates {
    wait: EstimateFamilies,
    hold: EstimateFamilies,
}

impl LockEstimates {
    /// `wait` and `hold` name each one's ratio and interval families.
    pub(crate) fn new(wait: [&'static str; 2], hold: [&'static str; 2]) -> Self {
        Self {
            wait: EstimateFamilies::new(
                wait[0],
                wait[1],
                "95% interval of the estimated total wait, where the overhead budget timed a share of acquisitions.",
            ),
            hold: EstimateFamilies::new(
                hold[0],
                hold[1],
                "95% interval of the estimated total hold time, where the overhead budget timed a share of guards.",
            ),
        }
    }

    /// Adds a lock's (or one mode's) wait and hold estimates, where there are any.
    pub(crate) fn add(&mut self, labels: &[(&'static str, &str)], lock: &LockTiming) {
        self.wait.add_stats(labels, &lock.wait);
        self.hold.add_stats(labels, &lock.hold);
    }

    /// The four families.
    pub(crate) fn into_families(self) -> impl Iterator<Item = Family> {
        self.wait.into_families().into_iter().chain(self.hold.into_families())
    }
}

/// Adds the two series (`bound` `lower` and `upper`, in seconds) of a 95% interval
/// given in ns to a gauge family of intervals.
pub(crate) fn interval(family: &mut Family, labels: &[(&'static str, &str)], ci95_ns: [u64; 2]) {
    for (bound, ns) in [("lower", ci95_ns[0]), ("upper", ci95_ns[1])] {
        let mut l = labels.to_vec();
        l.push(("bound", bound));
        family.value(&l, ns as f64 / 1e9);
    }
}

fn owned(labels: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    labels.iter().map(|(k, v)| (*k, if v.is_empty() { "-".to_string() } else { (*v).to_string() })).collect()
}

/// Every label name a family of hotpath writes, and the names Prometheus gives a
/// meaning of its own (`le`, `quantile`, and the target labels `job` and `instance`):
/// a process label (`HOTPATH_METRICS_LABELS`) may take none of them, so it can never
/// collide with an instrument's series.
pub const RESERVED_LABELS: &[&str] = &[
    "function",
    "channel",
    "mutex",
    "rw_lock",
    "mode",
    "future",
    "stream",
    "io",
    "direction",
    "query",
    "route",
    "class",
    "endpoint",
    "thread",
    "tid",
    "runtime",
    "worker",
    "tracker",
    "stack",
    "key",
    "source",
    "expression",
    "version",
    "caller",
    "clock",
    "code",
    "bound",
    "le",
    "quantile",
    "job",
    "instance",
];

/// Families gathered from the sections of one report.
pub type Families = Vec<Family>;
