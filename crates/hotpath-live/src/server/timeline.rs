//! `GET /timeline?seconds=N&format=perfetto|json`: the flight recorder's trace of the
//! last N seconds (everything the rings hold without `seconds`), as a file to save.
//!
//! Not a section: the trace is copied from the rings at the request, never from the
//! cached snapshot, and is not kept by the render cache (`rendered`), since two
//! requests a moment apart want two different traces. It is rendered on the worker
//! that took the request, like every response, never on the reactor (`hp-listen`),
//! which only sends what the socket did not take at once; one trace is rendered at a
//! time (a full dump is the server's largest allocation), a second request meanwhile
//! gets a 503 to retry, so trace requests cannot occupy every worker.

use std::sync::{Mutex, TryLockError};

use hotpath_engine::export::{self, TraceFormat};

use super::http::Response;
use super::pending::PENDING;

/// The endpoint's path.
pub(crate) const PATH: &str = "/timeline";
/// Its query parameters, for the index.
pub(crate) const QUERY: &str = "seconds=N (fractions allowed; default: all the rings hold)&format=perfetto|json";
/// What to tell a client when the recorder is off.
pub(crate) const OFF: &str =
    "the timeline is off: start the program with HOTPATH_TIMELINE=on (or HOTPATH_TIMELINE_OUTPUT / \
     HOTPATH_TIMELINE_TRIGGER) to record it";

/// Held while a trace is rendered.
static RENDERING: Mutex<()> = Mutex::new(());

/// What a `/timeline` request asks for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TraceQuery {
    /// Nanoseconds of timeline, ending now; `None` for all the rings hold.
    pub(crate) window_ns: Option<u64>,
    pub(crate) format: TraceFormat,
}

impl TraceQuery {
    /// Parses `seconds` and `format`; other parameters are ignored, as on every path.
    pub(crate) fn parse(raw: &str) -> Result<Self, String> {
        let mut query = TraceQuery { window_ns: None, format: TraceFormat::Perfetto };
        for (key, value) in form_urlencoded::parse(raw.as_bytes()) {
            match key.as_ref() {
                "seconds" => query.window_ns = Some(window_ns(&value)?),
                "format" => {
                    query.format = TraceFormat::parse(value.trim())
                        .ok_or_else(|| format!("format={value:?} is not a trace format: use perfetto or json"))?;
                }
                _ => {}
            }
        }
        Ok(query)
    }
}

/// `seconds` (a positive number, fractions allowed) as nanoseconds.
pub(crate) fn window_ns(seconds: &str) -> Result<u64, String> {
    let bad = || format!("seconds={seconds:?} is not a positive number of seconds (e.g. 5 or 0.5)");
    let value: f64 = seconds.trim().parse().map_err(|_| bad())?;
    seconds_to_ns(value).ok_or_else(bad)
}

/// A positive, finite number of seconds as nanoseconds (at least 1), or `None`.
pub(crate) fn seconds_to_ns(seconds: f64) -> Option<u64> {
    // The cast saturates: a window longer than u64 nanoseconds is "everything".
    (seconds.is_finite() && seconds > 0.0).then(|| ((seconds * 1e9) as u64).max(1))
}

/// The file name a trace of this process is offered under.
pub(crate) fn file_name(format: TraceFormat) -> String {
    let extension = match format {
        TraceFormat::Perfetto => "pftrace",
        TraceFormat::ChromeJson => "json",
    };
    format!("hotpath-{}.{extension}", std::process::id())
}

/// The response to `GET /timeline?{query}`.
pub(crate) fn serve(query: &str) -> Response {
    let query = match TraceQuery::parse(query) {
        Ok(q) => q,
        Err(problem) => return Response::error(400, &problem),
    };
    if !hotpath_engine::timeline::usage().on {
        return Response::error(409, OFF);
    }
    let _one = match RENDERING.try_lock() {
        Ok(guard) => guard,
        // A panic while rendering left nothing half-done behind the lock (it guards no data).
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
        Err(TryLockError::WouldBlock) => return Response::busy("another trace is being written"),
    };
    if PENDING.full() {
        return Response::busy("the server holds as many unsent responses as it may (slow clients)");
    }
    let (bytes, stats) = export::timeline(query.window_ns, query.format);
    let disposition = format!("attachment; filename=\"{}\"", file_name(query.format));
    Response::new(200, query.format.content_type(), bytes)
        .with_header("Content-Disposition", &disposition)
        .with_header("X-Hotpath-Trace-Events", &stats.events.to_string())
        .with_header("X-Hotpath-Trace-Threads", &stats.threads.to_string())
        .with_header("X-Hotpath-Trace-Torn", &stats.torn.to_string())
        .with_header("X-Hotpath-Trace-Crowded", &stats.crowded.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_and_format() {
        let parsed = TraceQuery::parse("seconds=2.5&format=json&limit=3").unwrap();
        assert_eq!(parsed, TraceQuery { window_ns: Some(2_500_000_000), format: TraceFormat::ChromeJson });
        assert_eq!(TraceQuery::parse("").unwrap(), TraceQuery { window_ns: None, format: TraceFormat::Perfetto });
        assert_eq!(TraceQuery::parse("seconds=1e-9").unwrap().window_ns, Some(1));
        assert_eq!(TraceQuery::parse("seconds=1e300").unwrap().window_ns, Some(u64::MAX));
        for bad in ["seconds=abc", "seconds=0", "seconds=-1", "seconds=NaN", "seconds=inf", "seconds="] {
            let problem = TraceQuery::parse(bad).unwrap_err();
            assert!(problem.contains("seconds=") && problem.contains("positive number"), "{bad}: {problem}");
        }
        let problem = TraceQuery::parse("format=xml").unwrap_err();
        assert!(problem.contains("\"xml\"") && problem.contains("perfetto or json"), "{problem}");
    }

    #[test]
    fn files_are_named_by_pid_and_format() {
        let pid = std::process::id();
        assert_eq!(file_name(TraceFormat::Perfetto), format!("hotpath-{pid}.pftrace"));
        assert_eq!(file_name(TraceFormat::ChromeJson), format!("hotpath-{pid}.json"));
    }
}
