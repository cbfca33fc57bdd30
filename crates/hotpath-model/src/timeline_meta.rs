//! What the report says of the flight recorder (`HOTPATH_TIMELINE`): its memory and
//! the trace files written during the run.

use serde::{Deserialize, Serialize};

/// The flight recorder of a run, present when it was on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TimelineMeta {
    /// Events each thread's ring holds.
    pub events_per_thread: usize,
    /// Rings (threads that recorded, plus retired threads' rings kept for a trace).
    pub rings: usize,
    /// Bytes the rings take.
    pub bytes: u64,
    /// Events written into the rings over the run (older ones overwritten).
    pub events_written: u64,
    /// Trace files written so far, oldest first: the latest 64.
    #[serde(default)]
    pub files: Vec<TraceFile>,
    /// Older trace files written but no longer listed in `files`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub files_unlisted: u64,
    /// Triggered traces not written because of the rate limit or the file cap.
    #[serde(default)]
    pub suppressed: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One trace file the run wrote.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TraceFile {
    /// Where it is.
    pub path: String,
    /// Why it was written: `exit`, `slow_call`, `panic`, `slow_consumer` or `requested`
    /// (`hotpath::write_timeline`).
    pub reason: String,
    /// What breached: the function and its call's duration, the channel, the panic's
    /// message (empty for `exit`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub subject: String,
    /// When it was written, milliseconds since the Unix epoch.
    pub written_unix_ms: u64,
    /// Events in the file.
    pub events: u64,
    /// Events left out because a thread overwrote them while they were copied.
    #[serde(default)]
    pub torn: u64,
    /// Why the file could not be written, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl TraceFile {
    /// A record of a trace file.
    pub fn new(path: String, reason: &str, subject: String, written_unix_ms: u64) -> Self {
        Self { path, reason: reason.to_string(), subject, written_unix_ms, ..Self::default() }
    }
}
