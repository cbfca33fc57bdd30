//! The top-level report: metadata plus one optional section per instrument.

use serde::{Deserialize, Serialize};

use crate::channels::Channels;
use crate::functions::FunctionsTiming;
use crate::functions_alloc::FunctionsAlloc;
use crate::functions_cpu::FunctionsCpu;
use crate::futures::Futures;
use crate::io::IoSection;
use crate::mutexes::Mutexes;
use crate::rw_locks::RwLocks;
use crate::streams::Streams;
use crate::threads::Threads;
use crate::tokio_runtime::TokioRuntimes;

/// Version of the JSON report schema. Bump it on any change that is not a pure
/// addition of an optional field; `docs/JSON_SCHEMA.md` records each version.
pub const SCHEMA_VERSION: u32 = 1;

/// A complete profiling snapshot, as printed at exit or served live.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Report {
    /// Always [`SCHEMA_VERSION`] for reports written by this build.
    pub schema_version: u32,
    /// What was profiled, when, and how.
    pub meta: Meta,
    /// Time spent in measured functions and blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub functions_timing: Option<FunctionsTiming>,
    /// Heap allocations of measured functions (`hotpath-alloc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub functions_alloc: Option<FunctionsAlloc>,
    /// CPU samples of measured functions (`hotpath-cpu`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub functions_cpu: Option<FunctionsCpu>,
    /// `future!` sites and measured async functions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub futures: Option<Futures>,
    /// `stream!` sites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streams: Option<Streams>,
    /// `channel!` sites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channels: Option<Channels>,
    /// `mutex!` sites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutexes: Option<Mutexes>,
    /// `rw_lock!` sites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rw_locks: Option<RwLocks>,
    /// Per-thread CPU and memory (`threads` feature, on by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<Threads>,
    /// Tokio runtimes registered with `tokio_runtime!()` (`tokio` feature).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokio_runtime: Option<TokioRuntimes>,
    /// Byte-level I/O through `io!` wrappers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub io: Option<IoSection>,
}

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
    /// Measurements the profiler had to drop (for example on a thread that was exiting).
    pub dropped: u64,
    /// Intervals whose end tick came out before their start (clock reads on different
    /// CPUs disagreeing); they are recorded as 0 and counted here.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub negative_intervals: u64,
    /// Warnings raised while profiling (bad settings, unavailable features).
    #[serde(default)]
    pub warnings: Vec<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Why a JSON report could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReportError {
    /// The text is not JSON, or does not have the shape of a report.
    Json(serde_json::Error),
    /// The report has no `schema_version` field.
    MissingVersion,
    /// The report was written with another schema version.
    Version {
        /// Version found in the file.
        found: u64,
        /// Version this build reads.
        expected: u32,
    },
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Json(e) => write!(f, "not a valid hotpath JSON report: {e}"),
            Self::MissingVersion => f.write_str("not a hotpath JSON report: no schema_version field"),
            Self::Version { found, expected } => {
                write!(f, "report has schema_version {found}, this hotpath reads version {expected}")
            }
        }
    }
}

impl std::error::Error for ReportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Json(e) => Some(e),
            _ => None,
        }
    }
}

impl Report {
    /// Parses a JSON report, checking the schema version before the shape so that
    /// a report from another version gets a precise error.
    pub fn from_json(text: &str) -> Result<Self, ReportError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(ReportError::Json)?;
        let found =
            value.get("schema_version").and_then(serde_json::Value::as_u64).ok_or(ReportError::MissingVersion)?;
        if found != u64::from(SCHEMA_VERSION) {
            return Err(ReportError::Version { found, expected: SCHEMA_VERSION });
        }
        serde_json::from_value(value).map_err(ReportError::Json)
    }

    /// Serializes the report; `pretty` selects indented output.
    pub fn to_json(&self, pretty: bool) -> String {
        let out = if pretty { serde_json::to_string_pretty(self) } else { serde_json::to_string(self) };
        // The model holds only strings, integers and finite floats, which always serialize.
        out.unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// True when no section holds any row.
    pub fn is_empty(&self) -> bool {
        self.functions_timing.as_ref().is_none_or(|s| s.rows.is_empty())
            && self.functions_alloc.as_ref().is_none_or(|s| s.rows.is_empty())
            && self.functions_cpu.as_ref().is_none_or(|s| s.samples == 0)
            && self.futures.as_ref().is_none_or(|s| s.rows.is_empty())
            && self.streams.as_ref().is_none_or(|s| s.rows.is_empty())
            && self.channels.as_ref().is_none_or(|s| s.rows.is_empty())
            && self.mutexes.as_ref().is_none_or(|s| s.rows.is_empty())
            && self.rw_locks.as_ref().is_none_or(|s| s.rows.is_empty())
            && self.threads.as_ref().is_none_or(|s| s.rows.is_empty())
            && self.tokio_runtime.as_ref().is_none_or(|s| s.runtimes.is_empty())
            && self.io.as_ref().is_none_or(|s| s.rows.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_other_schema_versions_by_number() {
        let err = Report::from_json(r#"{"schema_version": 99, "meta": {}}"#).unwrap_err();
        assert!(matches!(err, ReportError::Version { found: 99, expected: SCHEMA_VERSION }));
        assert!(err.to_string().contains("schema_version 99"));
    }

    #[test]
    fn rejects_non_reports() {
        assert!(matches!(Report::from_json("[1,2]"), Err(ReportError::MissingVersion)));
        assert!(matches!(Report::from_json("{"), Err(ReportError::Json(_))));
    }

    #[test]
    fn round_trips() {
        let mut report = Report { schema_version: SCHEMA_VERSION, ..Report::default() };
        report.meta.caller = "demo::main".into();
        let back = Report::from_json(&report.to_json(true)).unwrap();
        assert_eq!(back, report);
    }
}
