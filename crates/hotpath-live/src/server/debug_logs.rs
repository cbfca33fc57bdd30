//! `GET /debug/{dbg|val|gauge}/{id}/logs`: the kept log records of one tracker, newest
//! first, read from the engine's log store (not from the cached snapshot, so a value
//! just recorded is there). `?limit=N` keeps the newest N, `?focus=text|/regex/` the
//! records whose value (or key, on `<other>`) matches.

use hotpath_model::{DebugLog, DebugLogs, TrackerKind};

use super::http::Response;
use super::query::Query;

/// The path shape, for the index.
pub(crate) const PATTERN: &str = "/debug/{dbg|val|gauge}/{id}/logs";

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
