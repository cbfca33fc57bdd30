//! Sections as Prometheus metric families, typed: a section says which of its
//! numbers become which family, with which labels; the live server only formats
//! them. A renamed model field is a compile error here, never a silent zero.

use crate::buckets::Buckets;

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
    "le",
    "quantile",
    "job",
    "instance",
];

/// Families gathered from the sections of one report.
pub type Families = Vec<Family>;
