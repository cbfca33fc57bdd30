//! The report: metadata plus one optional section per instrument, declared once in
//! the section table below. Everything that lists sections reads [`SECTIONS`].

use std::str::FromStr;

use crate::section::{section_table, SectionData};
use crate::sections::channels::Channels;
use crate::sections::debug::DebugTrackers;
use crate::sections::functions_alloc::FunctionsAlloc;
use crate::sections::functions_cpu::FunctionsCpu;
use crate::sections::functions_icount::FunctionsIcount;
use crate::sections::functions_timing::FunctionsTiming;
use crate::sections::futures::Futures;
use crate::sections::http::Http;
use crate::sections::io::IoSection;
use crate::sections::mutexes::Mutexes;
use crate::sections::rw_locks::RwLocks;
use crate::sections::server::Server;
use crate::sections::sql::Sql;
use crate::sections::streams::Streams;
use crate::sections::threads::Threads;
use crate::sections::tokio_runtime::TokioRuntimes;

/// Version of the JSON report schema. Bump it on any change that is not a pure
/// addition of an optional field; `docs/JSON_SCHEMA.md` records each version.
pub const SCHEMA_VERSION: u32 = 1;

// The section table: one line per section, in report order. Adding a section is a
// folder under `sections/` and one entry here.
section_table! {
    /// Time spent in measured functions and blocks.
    FunctionsTiming => functions_timing: FunctionsTiming, "functions-timing", "Timing", Functions, compared: true,
        about: "calls, durations and self time of measured functions",
        absent: "no measured function has completed a call yet";
    /// Heap allocations of measured functions (`hotpath-alloc`).
    FunctionsAlloc => functions_alloc: FunctionsAlloc, "functions-alloc", "Allocations", Functions, compared: true,
        about: "bytes and allocations per call of measured functions",
        absent: "allocation profiling is off (hotpath-alloc feature) or nothing was allocated yet";
    /// CPU samples of measured functions (`hotpath-cpu`).
    FunctionsCpu => functions_cpu: FunctionsCpu, "functions-cpu", "CPU", Functions, compared: false,
        about: "sampled CPU time of measured functions, self and inclusive",
        absent: "CPU sampling is off (hotpath-cpu feature) or no sample was taken yet";
    /// Instructions of measured functions under Callgrind (`hotpath-callgrind`).
    FunctionsIcount => functions_icount: FunctionsIcount, "functions-icount", "Instructions", Functions, compared: true,
        about: "instructions executed per call of measured functions, under valgrind --tool=callgrind",
        absent: "instruction counting is off (hotpath-callgrind feature) or the program is not running under Callgrind";
    /// `channel!` sites.
    Channels => channels: Channels, "channels", "Channels", DataFlow, compared: true,
        about: "messages, queue length, blocked senders and latency of channels",
        absent: "no channel! wrapper was used yet";
    /// `stream!` sites.
    Streams => streams: Streams, "streams", "Streams", DataFlow, compared: true,
        about: "instances, items and time per item of streams",
        absent: "no stream! wrapper was used yet";
    /// `future!` sites and measured async functions.
    Futures => futures: Futures, "futures", "Futures", DataFlow, compared: true,
        about: "polls, busy and wall time, cancellations of futures",
        absent: "no future! wrapper or measured async function was used yet";
    /// `mutex!` sites.
    Mutexes => mutexes: Mutexes, "mutexes", "Mutexes", DataFlow, compared: true,
        about: "acquisitions, contention, wait and hold time of mutexes",
        absent: "no mutex! wrapper was used yet";
    /// `rw_lock!` sites.
    RwLocks => rw_locks: RwLocks, "rw_locks", "RwLocks", DataFlow, compared: true,
        about: "reads and writes, contention, wait and hold time of RwLocks",
        absent: "no rw_lock! wrapper was used yet";
    /// Per-thread CPU and memory (`threads` feature, on by default).
    Threads => threads: Threads, "threads", "Threads", Threads, compared: false,
        about: "CPU and memory of each thread",
        absent: "the threads sampler is off (threads feature) or has not sampled yet";
    /// Tokio runtimes registered with `tokio_runtime!()` (`tokio` feature).
    TokioRuntime => tokio_runtime: TokioRuntimes, "tokio_runtime", "Runtime", Tokio, compared: false,
        about: "workers, queues and flags of monitored Tokio runtimes",
        absent: "no Tokio runtime is monitored (hotpath::tokio_runtime!(&handle) with the tokio feature)";
    /// Byte-level I/O through `io!` wrappers.
    Io => io: IoSection, "io", "I/O", Io, compared: true,
        about: "operations, bytes, rate and durations of io! wrappers",
        absent: "no io! wrapper was used yet";
    /// Requests an axum server answered (`axum!`, feature `axum-0-8`).
    Server => server: Server, "server", "Server", Services, compared: true,
        about: "requests, status classes, latency and per-request SQL/HTTP/function time of server routes",
        absent: "no request went through hotpath::axum!(router) yet (feature axum-0-8)";
    /// Outgoing HTTP calls (`http!`, features `reqwest-0-12`, `reqwest-0-13`, `ureq-3`).
    Http => http: Http, "http", "HTTP", Services, compared: true,
        about: "calls, status classes, errors and latency of outgoing HTTP calls per endpoint",
        absent: "no call went through an http!() client yet (features reqwest-0-12, reqwest-0-13, ureq-3)";
    /// SQL queries (features `sqlx`, `diesel`).
    Sql => sql: Sql, "sql", "SQL", Services, compared: true,
        about: "calls, errors, rows and latency of SQL queries per normalized statement",
        absent: "no query was seen yet (sqlx_tracing_layer() or instrument_diesel_sql(), features sqlx, diesel)";
    /// `dbg!`, `val!` and `gauge!` trackers.
    Debug => debug: DebugTrackers, "debug", "Trackers", Debug, compared: false,
        about: "counts, last values and logs of dbg! call sites, val! keys and gauge! keys",
        absent: "no dbg!, val! or gauge! has recorded while profiling";
}

impl Section {
    /// Every section, in report order.
    pub fn all() -> Vec<Section> {
        SECTIONS.iter().map(|d| d.section).collect()
    }

    /// The table's entry for this section.
    pub fn def(self) -> &'static SectionDef {
        SECTIONS.iter().find(|d| d.section == self).unwrap_or(&SECTIONS[0])
    }

    /// Name in reports and in `HOTPATH_REPORT` (`functions-timing`).
    pub fn name(self) -> &'static str {
        self.def().name
    }

    /// JSON key and endpoint path segment (`functions_timing`).
    pub fn key(self) -> &'static str {
        self.def().key
    }

    /// The name in a report's header, as hotpath 0.30 prints it: `timing`, `alloc`,
    /// `cpu` and `icount` for the functions sections, the name for the others.
    pub fn short_name(self) -> &'static str {
        let name = self.name();
        name.strip_prefix("functions-").unwrap_or(name)
    }
}

impl FromStr for Section {
    type Err = String;
    /// A section's name or key, with `-` or `_` between words: `functions-timing`,
    /// `functions_timing`, and `rw-locks` as the table title prints it, all work.
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let key = s.replace('-', "_");
        SECTIONS.iter().find(|d| d.name == s || d.key == key).map(|d| d.section).ok_or_else(|| {
            let names: Vec<&str> = SECTIONS.iter().map(|d| d.name).collect();
            format!("unknown section {s:?}; expected one of {}", names.join(", "))
        })
    }
}

impl std::fmt::Display for Section {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
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

    /// True when no section holds anything to show.
    pub fn is_empty(&self) -> bool {
        self.sections().all(|(_, s)| s.is_empty())
    }

    /// The sections the report has, in report order.
    pub fn sections(&self) -> impl Iterator<Item = (&'static SectionDef, &dyn SectionData)> + '_ {
        SECTIONS.iter().filter_map(|d| self.section(d.section).map(|s| (d, s)))
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
