//! A row's compared figures listed by its own type: each with the dotted path it has
//! in the JSON report (`lock.wait.percentiles_ns.p99`) and the [`Unit`] the type
//! declares, so that readers of a typed report (`hotpath compare`) take units from
//! the model instead of guessing them from field names ([`Unit::of_field`] stays for
//! sections a reader has no type for, such as those of another build).

use crate::percentiles::percentile_label;
use crate::stats::{DurationStats, LockTiming};
use crate::units::{Judging, Unit};

/// One figure of a row.
#[derive(Clone, Debug, PartialEq)]
pub struct RowMetric {
    /// Dotted path of the value in the row's JSON (`lock.contended`).
    pub key: String,
    /// What the value measures.
    pub unit: Unit,
    /// The value, in that unit.
    pub value: f64,
    /// How `hotpath compare` judges it: by default the model's rule for the unit and
    /// key ([`Unit::judging`]); a row type may declare otherwise ([`push_judged`]).
    pub judging: Judging,
}

/// A section row that lists its figures; implemented next to each row type.
pub trait RowMetrics {
    /// The row's display name, which identifies it in a comparison.
    fn row_name(&self) -> &str;
    /// Every numeric figure of the row, in JSON order, identity fields (`line`) left out.
    fn row_metrics(&self) -> Vec<RowMetric>;
}

/// Appends the figure `key` of unit `unit`.
pub(crate) fn push(out: &mut Vec<RowMetric>, key: &str, unit: Unit, value: f64) {
    push_judged(out, key, unit, unit.judging(key), value);
}

/// Appends the figure `key` of unit `unit`, judged as `judging` says whatever its
/// name: a row type's own word on whether a figure repeats exactly from run to run.
pub fn push_judged(out: &mut Vec<RowMetric>, key: &str, unit: Unit, judging: Judging, value: f64) {
    out.push(RowMetric { key: key.to_string(), unit, value, judging });
}

/// The figures of a duration distribution under `prefix` (`lock.wait`).
pub(crate) fn push_durations(out: &mut Vec<RowMetric>, prefix: &str, d: &DurationStats) {
    push(out, &format!("{prefix}.count"), Unit::Count, d.count as f64);
    for (name, value) in [("total_ns", d.total_ns), ("avg_ns", d.avg_ns), ("max_ns", d.max_ns)] {
        push(out, &format!("{prefix}.{name}"), Unit::Nanoseconds, value as f64);
    }
    for (p, value) in &d.percentiles_ns.0 {
        push(out, &format!("{prefix}.percentiles_ns.{}", percentile_label(*p)), Unit::Nanoseconds, *value as f64);
    }
}

/// Byte percentiles under `prefix` (`alloc.percentiles_bytes`).
pub(crate) fn push_bytes(out: &mut Vec<RowMetric>, prefix: &str, p: &crate::percentiles::Percentiles) {
    for (p, value) in &p.0 {
        push(out, &format!("{prefix}.{}", percentile_label(*p)), Unit::Bytes, *value as f64);
    }
}

/// Responses by status class, under `status`.
pub(crate) fn push_status(out: &mut Vec<RowMetric>, s: &crate::requests::StatusClasses) {
    let classes = [
        ("status_1xx", s.status_1xx),
        ("status_2xx", s.status_2xx),
        ("status_3xx", s.status_3xx),
        ("status_4xx", s.status_4xx),
        ("status_5xx", s.status_5xx),
    ];
    for (name, value) in classes {
        push(out, &format!("status.{name}"), Unit::Count, value as f64);
    }
}

/// The figures of one lock mode under `prefix` (`lock`, `reads`).
pub(crate) fn push_lock(out: &mut Vec<RowMetric>, prefix: &str, lock: &LockTiming) {
    push(out, &format!("{prefix}.acquisitions"), Unit::Count, lock.acquisitions as f64);
    push(out, &format!("{prefix}.contended"), Unit::Count, lock.contended as f64);
    push_durations(out, &format!("{prefix}.wait"), &lock.wait);
    push_durations(out, &format!("{prefix}.hold"), &lock.hold);
}

/// One row of a section as its figures: its name and every figure with its unit.
pub type NamedMetrics = (String, Vec<RowMetric>);
