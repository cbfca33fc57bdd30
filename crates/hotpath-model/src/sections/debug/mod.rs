//! The `debug` section: what `dbg!`, `val!` and `gauge!` recorded. `dbg!` rows are
//! keyed by call site, `val!` and `gauge!` rows by key; each keeps a count, its last
//! value and (served apart, as [`DebugLogs`](crate::DebugLogs)) its last log records.

mod float;
mod metrics;
mod row_metrics;
mod table;

use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Which macro recorded a row or a log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum TrackerKind {
    /// `hotpath::dbg!(expr)`: one row per call site.
    #[default]
    Dbg,
    /// `hotpath::val!(key).set(&value)`: one row per key.
    Val,
    /// `hotpath::gauge!(key).set(x)`: one row per key.
    Gauge,
}

impl TrackerKind {
    /// Every kind, in report order.
    pub const ALL: [TrackerKind; 3] = [TrackerKind::Dbg, TrackerKind::Val, TrackerKind::Gauge];

    /// `dbg`, `val` or `gauge`: the JSON `kind` and the endpoint path segment.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Dbg => "dbg",
            Self::Val => "val",
            Self::Gauge => "gauge",
        }
    }

    /// The macro's name as written in code: `dbg!`, `val!`, `gauge!`.
    pub fn macro_name(self) -> &'static str {
        match self {
            Self::Dbg => "dbg!",
            Self::Val => "val!",
            Self::Gauge => "gauge!",
        }
    }
}

impl FromStr for TrackerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| format!("unknown tracker kind {s:?}; expected dbg, val or gauge"))
    }
}

/// Every tracker that recorded, with the limits that applied.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DebugTrackers {
    /// Rows before the focus filter.
    pub total_rows: usize,
    /// Log records kept per tracker (`HOTPATH_LOGS_LIMIT`).
    pub logs_limit: usize,
    /// Characters kept of each value's `Debug` text (`HOTPATH_MAX_LOG_LEN`).
    pub max_log_len: usize,
    /// Keys kept per macro, `<other>` included (`HOTPATH_ENTRIES_LIMIT`).
    pub entries_limit: usize,
    /// `dbg!` rows by source location, then `val!` and `gauge!` rows by key.
    pub rows: Vec<DebugRow>,
    /// Rows of other sections that keep logs (`log = true`), by section and name; their
    /// records are served at `/{section}/{name}/logs`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logged: Vec<LoggedRow>,
}

/// A summary of one row's `log = true` values (`functions_timing`, `futures`,
/// `channels`, `streams`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LoggedRow {
    /// The section's key (`functions_timing`).
    pub section: String,
    /// The row's name, as in that section.
    pub name: String,
    /// Values ever logged.
    pub total: u64,
    /// Records kept now (the logs limit, less what the shared byte budget dropped).
    pub kept: usize,
    /// The newest value's `Debug` text.
    pub value: String,
    /// Whether it was cut at the length limit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
    /// When it was logged, nanoseconds since profiling started.
    pub last_at_ns: u64,
}

/// One tracker; the JSON carries its kind as `"kind": "dbg" | "val" | "gauge"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[non_exhaustive]
pub enum DebugRow {
    /// A `dbg!` call site.
    Dbg(DbgRow),
    /// A `val!` key.
    Val(ValRow),
    /// A `gauge!` key.
    Gauge(GaugeRow),
}

impl DebugRow {
    /// Which macro recorded it.
    pub fn kind(&self) -> TrackerKind {
        match self {
            Self::Dbg(_) => TrackerKind::Dbg,
            Self::Val(_) => TrackerKind::Val,
            Self::Gauge(_) => TrackerKind::Gauge,
        }
    }

    /// Its id within its kind: the `{id}` of `/debug/{kind}/{id}/logs`.
    pub fn id(&self) -> u32 {
        match self {
            Self::Dbg(r) => r.id,
            Self::Val(r) => r.id,
            Self::Gauge(r) => r.id,
        }
    }

    /// The expression (`dbg!`) or the key (`val!`, `gauge!`).
    pub fn name(&self) -> &str {
        match self {
            Self::Dbg(r) => &r.name,
            Self::Val(r) => &r.name,
            Self::Gauge(r) => &r.name,
        }
    }

    /// Times it was updated.
    pub fn count(&self) -> u64 {
        match self {
            Self::Dbg(r) => r.count,
            Self::Val(r) => r.count,
            Self::Gauge(r) => r.updates,
        }
    }
}

/// A `dbg!` call site.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DbgRow {
    /// Id among `dbg!` rows.
    pub id: u32,
    /// The expression as written (`stringify!`).
    pub name: String,
    /// Source file of the call.
    pub file: String,
    /// Source line.
    pub line: u32,
    /// Source column.
    pub column: u32,
    /// Values recorded.
    pub count: u64,
    /// `Debug` text of the last value, cut at `max_log_len` characters.
    pub value: String,
    /// Whether `value` was cut (it then ends in `...`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub cut: bool,
    /// When the last value was recorded, nanoseconds since profiling started.
    pub last_at_ns: u64,
    /// Name of the thread that recorded it.
    pub thread: String,
}

/// A `val!` key.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ValRow {
    /// Id among `val!` rows.
    pub id: u32,
    /// The key (`<other>` for keys beyond `entries_limit`).
    pub name: String,
    /// True for the `<other>` row that keys beyond the limit fold into.
    #[serde(default, skip_serializing_if = "is_false")]
    pub other: bool,
    /// Values set.
    pub count: u64,
    /// `Debug` text of the last value, cut at `max_log_len` characters.
    pub value: String,
    /// Whether `value` was cut (it then ends in `...`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub cut: bool,
    /// When the last value was set, nanoseconds since profiling started.
    pub last_at_ns: u64,
    /// Name of the thread that set it.
    pub thread: String,
    /// Source file of the `val!` that set the last value.
    pub file: String,
    /// Its line.
    pub line: u32,
    /// Its column.
    pub column: u32,
}

/// A `gauge!` key.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct GaugeRow {
    /// Id among `gauge!` rows.
    pub id: u32,
    /// The key (`<other>` for keys beyond `entries_limit`).
    pub name: String,
    /// True for the `<other>` row that keys beyond the limit fold into (they then
    /// share one value).
    #[serde(default, skip_serializing_if = "is_false")]
    pub other: bool,
    /// `set`, `inc` and `dec` calls.
    pub updates: u64,
    /// The value now. JSON: a number, or `"NaN"`, `"+Inf"`, `"-Inf"`.
    #[serde(with = "float::number")]
    pub current: f64,
    /// Smallest value it held.
    #[serde(with = "float::number")]
    pub min: f64,
    /// Largest value it held.
    #[serde(with = "float::number")]
    pub max: f64,
    /// When it was last updated, nanoseconds since profiling started.
    pub last_at_ns: u64,
    /// Name of the thread that updated it last.
    pub thread: String,
    /// Source file of the `gauge!` that updated it last.
    pub file: String,
    /// Its line.
    pub line: u32,
    /// Its column.
    pub column: u32,
    /// Its last values (up to 64), oldest first: the console's sparkline.
    #[serde(with = "float::numbers")]
    pub history: Vec<f64>,
}

/// The last log records of one tracker (`GET /debug/{kind}/{id}/logs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DebugLogs {
    /// `dbg`, `val` or `gauge`.
    pub kind: TrackerKind,
    /// The tracker's id within its kind.
    pub id: u32,
    /// Its expression or key.
    pub name: String,
    /// Records ever appended (the oldest are dropped beyond the logs limit).
    pub total: u64,
    /// The kept records, newest first.
    pub logs: Vec<DebugLog>,
}

/// The logged values of one row of another section, kept by `log = true`
/// (`GET /{section}/{name}/logs`: `functions_timing`, `futures`, `channels`, `streams`).
/// Rows of one name (several call sites or instances) are merged, newest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RowLogs {
    /// The section's key, as in its endpoint (`functions_timing`).
    pub section: String,
    /// The row's name, as in the section.
    pub name: String,
    /// Values ever logged (the oldest are dropped beyond the logs limit and the budget).
    pub total: u64,
    /// The kept records, newest first (`seq` counts within one call site or instance).
    pub logs: Vec<DebugLog>,
}

/// One log record: a value, when and where it was recorded.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DebugLog {
    /// Its position among every record of the tracker, from 1.
    pub seq: u64,
    /// When it was recorded, nanoseconds since profiling started.
    pub at_ns: u64,
    /// Name of the thread that recorded it.
    pub thread: String,
    /// Source location of the call, when the tracker has several (`val!`, `gauge!`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Its line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Its column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// The real key, on records of an `<other>` tracker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// `Debug` text of the value (`dbg!`, `val!`), cut at `max_log_len` characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Whether `value` was cut (it then ends in `...`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub cut: bool,
    /// `set`, `inc` or `dec` (`gauge!`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op: Option<String>,
    /// The argument of that operation (`gauge!`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "float::optional")]
    pub operand: Option<f64>,
    /// The gauge's value after the operation (`gauge!`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "float::optional")]
    pub current: Option<f64>,
}

fn is_false(b: &bool) -> bool {
    !*b
}
