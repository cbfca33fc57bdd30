//! The log records of the debug tracker selected in the Debug tab, or of the selected
//! row of a section whose rows keep logs (`log = true` values; SQL, HTTP and server
//! rows: their last executions or requests): which logs path the poller should fetch
//! (shared with its thread) and what it last brought.

use std::sync::{Arc, Mutex};

use hotpath_model::{DebugLogs, DebugRow, RowLogs, Section};
use serde_json::Value;

/// Sections whose rows can keep logs, as the server serves them (`/{section}/{name}/logs`).
pub(crate) const LOGGED_SECTIONS: [Section; 7] = [
    Section::FunctionsTiming,
    Section::Futures,
    Section::Channels,
    Section::Streams,
    Section::Sql,
    Section::Http,
    Section::Server,
];

/// Records asked of the server per fetch: more than a screen shows.
const LIMIT: usize = 200;

/// The path the poller fetches after each report, `None` when no tracker is selected.
#[derive(Clone, Default)]
pub(crate) struct Wanted(Arc<Mutex<Option<String>>>);

impl Wanted {
    /// The path to fetch now.
    pub(crate) fn get(&self) -> Option<String> {
        self.0.lock().map(|p| p.clone()).unwrap_or_default()
    }

    fn set(&self, path: Option<String>) {
        if let Ok(mut p) = self.0.lock() {
            *p = path;
        }
    }
}

#[derive(Default)]
pub(crate) struct TrackerLogs {
    wanted: Wanted,
    /// The last answer for a tracker: its path, and the logs or why there are none.
    last: Option<(String, Result<DebugLogs, String>)>,
    /// The same for a row of another section.
    last_row: Option<(String, Result<RowLogs, String>)>,
}

impl TrackerLogs {
    /// The handle the poller reads the wanted path from.
    pub(crate) fn wanted(&self) -> Wanted {
        self.wanted.clone()
    }

    /// Follows a tracker of the debug section (`None`: stop fetching).
    pub(crate) fn follow(&self, tracker: Option<&DebugRow>) {
        self.wanted.set(tracker.map(logs_path));
    }

    /// Follows the row `name` of `section` (one of [`LOGGED_SECTIONS`]).
    pub(crate) fn follow_row(&self, section: &str, name: &str) {
        self.wanted.set(Some(row_path(section, name)));
    }

    /// Takes in the server's answer for `path`, read as the model's `DebugLogs` (a
    /// tracker's) or `RowLogs` (a row's).
    pub(crate) fn received(&mut self, path: String, logs: Result<Value, String>) {
        let unexpected = |e: serde_json::Error| format!("{path}: unexpected answer: {e}");
        if path.starts_with("/debug/") {
            let logs = logs.and_then(|v| serde_json::from_value(v).map_err(unexpected));
            self.last = Some((path, logs));
        } else {
            let logs = logs.and_then(|v| serde_json::from_value(v).map_err(unexpected));
            self.last_row = Some((path, logs));
        }
    }

    /// The last answer for the row `name` of `section`, if the last fetch was of it.
    pub(crate) fn of_row(&self, section: &str, name: &str) -> Option<&Result<RowLogs, String>> {
        let path = row_path(section, name);
        self.last_row.as_ref().filter(|(p, _)| *p == path).map(|(_, logs)| logs)
    }

    /// The last answer for `tracker`, if the last fetch was of it.
    pub(crate) fn of(&self, tracker: &DebugRow) -> Option<&Result<DebugLogs, String>> {
        let path = logs_path(tracker);
        self.last.as_ref().filter(|(p, _)| *p == path).map(|(_, logs)| logs)
    }
}

/// `/debug/{kind}/{id}/logs?limit=N` of a tracker.
fn logs_path(tracker: &DebugRow) -> String {
    format!("/debug/{}/{}/logs?limit={LIMIT}", tracker.kind().as_str(), tracker.id())
}

/// `/{section}/{name}/logs?limit=N`, the name percent-encoded but for `:`.
fn row_path(section: &str, name: &str) -> String {
    let mut encoded = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~:".contains(&byte) {
            encoded.push(byte as char);
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    format!("/{section}/{encoded}/logs?limit={LIMIT}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tracker(row: Value) -> DebugRow {
        serde_json::from_value(row).unwrap()
    }

    #[test]
    fn follows_the_selected_tracker_and_keeps_only_its_answer() {
        let mut logs = TrackerLogs::default();
        let wanted = logs.wanted();
        let place = json!({"last_at_ns": 1, "thread": "main", "file": "a.rs", "line": 1, "column": 1});
        let mut gauge = json!({"kind": "gauge", "id": 3, "name": "depth", "updates": 1, "current": 1.0,
                               "min": 1.0, "max": 1.0, "history": [1.0]});
        let mut val = json!({"kind": "val", "id": 0, "name": "user", "count": 1, "value": "7"});
        for row in [&mut gauge, &mut val] {
            row.as_object_mut().unwrap().extend(place.as_object().unwrap().clone());
        }
        let (gauge, val) = (tracker(gauge), tracker(val));
        logs.follow(Some(&gauge));
        assert_eq!(wanted.get().as_deref(), Some("/debug/gauge/3/logs?limit=200"));
        let answer = json!({"kind": "gauge", "id": 3, "name": "depth", "total": 0, "logs": []});
        logs.received(wanted.get().unwrap(), Ok(answer));
        assert!(logs.of(&gauge).is_some_and(|l| l.is_ok()));
        assert!(logs.of(&val).is_none(), "an answer for another tracker is not shown");
        // A row of another kind is not a tracker: it never reaches `follow`.
        assert!(serde_json::from_value::<DebugRow>(json!({"kind": "thread", "id": 1})).is_err());
        logs.received(wanted.get().unwrap(), Ok(json!({"logs": "nope"})));
        assert!(logs.of(&gauge).is_some_and(|l| l.as_ref().is_err_and(|e| e.contains("unexpected answer"))));
        logs.follow(None);
        assert_eq!(wanted.get(), None);
    }

    #[test]
    fn follows_a_logged_row_by_its_encoded_name() {
        let mut logs = TrackerLogs::default();
        let wanted = logs.wanted();
        logs.follow_row("channels", "jobs of a/b");
        assert_eq!(wanted.get().as_deref(), Some("/channels/jobs%20of%20a%2Fb/logs?limit=200"));
        logs.follow_row("functions_timing", "app::parse");
        let path = wanted.get().unwrap();
        assert_eq!(path, "/functions_timing/app::parse/logs?limit=200");
        let answer = json!({"section": "functions_timing", "name": "app::parse", "total": 9,
                            "logs": [{"seq": 9, "at_ns": 5, "thread": "main", "value": "Ok(1)"}]});
        logs.received(path, Ok(answer));
        let got = logs.of_row("functions_timing", "app::parse").unwrap().as_ref().unwrap();
        assert_eq!((got.total, got.logs[0].value.as_deref()), (9, Some("Ok(1)")));
        assert!(logs.of_row("futures", "app::parse").is_none(), "another row's answer is not shown");
    }
}
