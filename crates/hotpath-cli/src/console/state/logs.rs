//! The log records of the debug tracker selected in the Debug tab: which logs path
//! the poller should fetch (shared with its thread) and what it last brought.

use std::sync::{Arc, Mutex};

use serde_json::Value;

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
    /// The last answer: its path, and the logs or why there are none.
    last: Option<(String, Result<Value, String>)>,
}

impl TrackerLogs {
    /// The handle the poller reads the wanted path from.
    pub(crate) fn wanted(&self) -> Wanted {
        self.wanted.clone()
    }

    /// Follows the tracker of a debug section row (`None`: stop fetching).
    pub(crate) fn follow(&self, row: Option<&Value>) {
        self.wanted.set(row.and_then(logs_path));
    }

    pub(crate) fn received(&mut self, path: String, logs: Result<Value, String>) {
        self.last = Some((path, logs));
    }

    /// The last answer for `row`'s tracker, if the last fetch was of it.
    pub(crate) fn of(&self, row: &Value) -> Option<&Result<Value, String>> {
        let path = logs_path(row)?;
        self.last.as_ref().filter(|(p, _)| *p == path).map(|(_, logs)| logs)
    }
}

/// `/debug/{kind}/{id}/logs?limit=N` for a row of the debug section.
pub(crate) fn logs_path(row: &Value) -> Option<String> {
    let kind = row["kind"].as_str().filter(|k| ["dbg", "val", "gauge"].contains(k))?;
    let id = row["id"].as_u64()?;
    Some(format!("/debug/{kind}/{id}/logs?limit={LIMIT}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn follows_the_selected_tracker_and_keeps_only_its_answer() {
        let mut logs = TrackerLogs::default();
        let wanted = logs.wanted();
        let gauge = json!({"kind": "gauge", "id": 3, "name": "depth"});
        let val = json!({"kind": "val", "id": 0, "name": "user"});
        logs.follow(Some(&gauge));
        assert_eq!(wanted.get().as_deref(), Some("/debug/gauge/3/logs?limit=200"));
        logs.received(wanted.get().unwrap(), Ok(json!({"logs": []})));
        assert!(logs.of(&gauge).is_some());
        assert!(logs.of(&val).is_none(), "an answer for another tracker is not shown");
        logs.follow(Some(&json!({"kind": "thread", "id": 1})));
        assert_eq!(wanted.get(), None, "not a tracker row");
        logs.follow(None);
        assert_eq!(wanted.get(), None);
    }
}
