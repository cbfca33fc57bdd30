//! `GET /debug/{dbg|val|gauge}/{id}/logs`: the kept log records of one tracker, and
//! `GET /{functions_timing|futures|channels|streams}/{name}/logs`: the values that
//! `log = true` kept for one row, and `GET /{sql|http|server}/{name}/logs`: the last
//! executions or requests of one row (`{name}` is the row's name, percent-encoded
//! where it needs to be: `%2F` for the `/` of a server route). Newest first, read from the engine's log store (not from the cached
//! snapshot, so a value just recorded is there). `?limit=N` keeps the newest N,
//! `?focus=text|/regex/` the records whose value (or key, on `<other>`) matches.

use hotpath_model::{DebugLog, DebugLogs, RowLogs, TrackerKind};

use super::http::Response;
use super::query::Query;

/// The path shapes, for the index.
pub(crate) const PATTERN: &str = "/debug/{dbg|val|gauge}/{id}/logs";
pub(crate) const ROW_PATTERN: &str = "/{functions_timing|futures|channels|streams|sql|http|server}/{name}/logs";

/// Sections whose rows can keep logs (`log = true`).
pub(crate) const LOGGED_SECTIONS: [&str; 7] =
    ["functions_timing", "futures", "channels", "streams", "sql", "http", "server"];

/// The response for a row's logs path, or `None` when `path` is not one.
pub(crate) fn serve_row(path: &str, query: &str) -> Option<Response> {
    let rest = path.strip_prefix('/')?.strip_suffix("/logs")?;
    let (section, name) = rest.split_once('/')?;
    let section = LOGGED_SECTIONS.into_iter().find(|s| *s == section)?;
    let Some(name) = percent_decode(name) else {
        return Some(Response::error(400, &format!("{name:?} is not a percent-encoded UTF-8 row name")));
    };
    let query = match Query::parse(query) {
        Ok(q) => q,
        Err(problem) => return Some(Response::error(400, &problem)),
    };
    let Some(mut logs) = hotpath_engine::row_logs(section, &name) else {
        let message = format!(
            "no logged values for {name:?} in {section} (log = true keeps them; sql, http and server rows log each \
             execution or request); GET /{section} lists the rows"
        );
        return Some(Response::error(404, &message));
    };
    if let Some(focus) = &query.focus {
        keep_rows(&mut logs, |text| focus.matches(text));
    }
    if let Some(limit) = query.limit.filter(|n| *n > 0) {
        logs.logs.truncate(limit);
    }
    Some(Response::json(200, serde_json::to_value(&logs).map(|v| v.to_string()).unwrap_or_default()))
}

/// Keeps a row's records whose value matches.
pub(crate) fn keep_rows(logs: &mut RowLogs, matches: impl Fn(&str) -> bool) {
    logs.logs.retain(|log| searchable(log).iter().any(|t| matches(t)));
}

/// `%XX` escapes decoded; `None` for a bad escape or a result that is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The response for a logs path, or `None` when `path` is not one.
pub(crate) fn serve(path: &str, query: &str) -> Option<Response> {
    let rest = path.strip_prefix("/debug/")?.strip_suffix("/logs")?;
    let (kind, id) = rest.split_once('/')?;
    let kind: TrackerKind = match kind.parse() {
        Ok(kind) => kind,
        Err(problem) => return Some(Response::error(404, &problem)),
    };
    let Ok(id) = id.parse::<u32>() else {
        return Some(Response::error(404, &format!("{id:?} is not a tracker id (a number from /debug)")));
    };
    let query = match Query::parse(query) {
        Ok(q) => q,
        Err(problem) => return Some(Response::error(400, &problem)),
    };
    let Some(mut logs) = hotpath_engine::debug::logs(kind, id) else {
        let message = format!("no {} tracker with id {id}; GET /debug lists them", kind.macro_name());
        return Some(Response::error(404, &message));
    };
    if let Some(focus) = &query.focus {
        keep(&mut logs, |text| focus.matches(text));
    }
    if let Some(limit) = query.limit.filter(|n| *n > 0) {
        logs.logs.truncate(limit);
    }
    Some(Response::json(200, serde_json::to_value(&logs).map(|v| v.to_string()).unwrap_or_default()))
}

/// Keeps the records whose text matches: the value's `Debug` text, the gauge's value
/// after the operation, or the real key of an `<other>` record.
pub(crate) fn keep(logs: &mut DebugLogs, matches: impl Fn(&str) -> bool) {
    logs.logs.retain(|log| searchable(log).iter().any(|t| matches(t)));
}

fn searchable(log: &DebugLog) -> Vec<String> {
    let number = log.current.map(|v| v.to_string());
    [log.value.clone(), number, log.key.clone()].into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_logs_paths_are_taken() {
        assert!(serve("/debug", "").is_none());
        assert!(serve("/debug/val/1", "").is_none());
        assert_eq!(serve("/debug/nope/1/logs", "").map(|r| r.status), Some(404));
        assert_eq!(serve("/debug/val/x/logs", "").map(|r| r.status), Some(404));
        assert_eq!(serve("/debug/gauge/4000000/logs", "").map(|r| r.status), Some(404));
        assert_eq!(serve("/debug/dbg/0/logs", "limit=ten").map(|r| r.status), Some(400));
    }

    #[test]
    fn row_logs_paths_are_taken_for_logged_sections_only() {
        assert!(serve_row("/functions_timing", "").is_none());
        assert!(serve_row("/threads/main/logs", "").is_none());
        assert!(serve_row("/debug/val/1/logs", "").is_none(), "the trackers' path is not a row's");
        let missing = serve_row("/functions_timing/nobody%3A%3Ahere/logs", "").map(|r| r.status);
        assert_eq!(missing, Some(404));
        assert_eq!(serve_row("/channels/bad%zz/logs", "").map(|r| r.status), Some(400));
        for section in ["sql", "http", "server"] {
            let missing = serve_row(&format!("/{section}/GET%20%2Fnone%2F%7Bid%7D/logs"), "").map(|r| r.status);
            assert_eq!(missing, Some(404), "{section} rows have logs paths");
        }
        assert_eq!(serve_row("/streams/x/logs", "limit=ten").map(|r| r.status), Some(400));
        assert_eq!(percent_decode("a%3A%3Ab%20c%2Fd").as_deref(), Some("a::b c/d"));
        assert_eq!(percent_decode("caf%C3%A9").as_deref(), Some("café"));
        assert!(percent_decode("%FF").is_none() && percent_decode("%4").is_none());
    }

    #[test]
    fn focus_matches_values_numbers_and_keys() {
        let log = |value: Option<&str>, current: Option<f64>, key: Option<&str>| {
            let mut l = DebugLog::default();
            (l.value, l.current, l.key) = (value.map(String::from), current, key.map(String::from));
            l
        };
        let mut logs = DebugLogs::default();
        logs.logs = vec![log(Some("\"ready\""), None, None), log(None, Some(12.5), None), log(None, None, Some("k-9"))];
        keep(&mut logs, |t| t.contains("ready") || t.contains("12.5") || t.contains("k-9"));
        assert_eq!(logs.logs.len(), 3);
        keep(&mut logs, |t| t.contains("12"));
        assert_eq!(logs.logs.len(), 1);
    }
}
