//! Facts about the profiled run that apply to every section. A leaf: sections and
//! printers read it, it reads nothing of theirs.

use serde::{Deserialize, Serialize};

/// Facts about the profiled run that apply to every section.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Meta {
    /// Version of the hotpath runtime that wrote the report.
    pub hotpath_version: String,
    /// Path of the function annotated with `#[hotpath::main]`.
    pub caller: String,
    /// Process id of the profiled program.
    pub pid: u32,
    /// Wall-clock start of profiling, milliseconds since the Unix epoch.
    pub started_unix_ms: u64,
    /// Nanoseconds from the start of profiling to this snapshot.
    pub wall_ns: u64,
    /// Why the report was produced: `main_returned`, `panic`, `signal`, `process_exit` or `live`.
    pub ended_by: String,
    /// Configured percentiles, in the order their columns appear.
    pub percentiles: Vec<f64>,
    /// Maximum rows per section (0 means unlimited).
    pub limit: usize,
    /// Focus filter applied to row names, if any (`text` or `/regex/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<String>,
    /// Clock source: `tsc` (calibrated time-stamp counter) or `monotonic`.
    pub clock: String,
    /// Why that clock: e.g. the kernel's clocksource is not `tsc`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub clock_reason: String,
    /// Measurements the profiler had to drop (for example on a thread that was exiting).
    pub dropped: u64,
    /// Intervals whose end tick came out before their start (clock reads on different
    /// CPUs disagreeing); they are recorded as 0 and counted here.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub negative_intervals: u64,
    /// `HOTPATH_REPORT_LABEL`, shown in the header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Time-sampling rates below 1 that applied, per instrument (`functions`, `io`, ...):
    /// counts are exact, durations come from the timed share, totals are estimates.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub time_sampling: std::collections::BTreeMap<String, f64>,
    /// The overhead budget and the profiler's estimated share of CPU time, when a
    /// budget is set (`HOTPATH_OVERHEAD_BUDGET`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overhead: Option<crate::Overhead>,
    /// Path segments of function names the tables show (0 = whole paths; JSON always
    /// has whole paths).
    #[serde(default)]
    pub name_depth: usize,
    /// Characters of a row's name the tables show, cut in the middle
    /// (`HOTPATH_NAME_WIDTH`; 0 = whole names; JSON always has whole names).
    #[serde(default, skip_serializing_if = "is_zero_width")]
    pub name_width: usize,
    /// The session's own row is left out and `% Total` is a share of the rows' sum
    /// (`HOTPATH_EXCLUDE_WRAPPER`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wrapper_excluded: bool,
    /// Tables without a rule between rows (`HOTPATH_COMPACT_TABLES`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub compact_tables: bool,
    /// Warnings raised while profiling (bad settings, unavailable features).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// The flight recorder, when it was on (`HOTPATH_TIMELINE`): its memory and the
    /// trace files written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeline: Option<crate::TimelineMeta>,
}

/// The clock name of a run under Callgrind, where durations are not measured.
pub(crate) const FROZEN_CLOCK: &str = "frozen";

impl Meta {
    /// True under Callgrind: the clock is frozen and every duration is zero, so the
    /// tables show counts (and instructions) only.
    pub fn untimed(&self) -> bool {
        self.clock == FROZEN_CLOCK
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_zero_width(n: &usize) -> bool {
    *n == 0
}
