//! Polls the metrics server: `/profiler_status` and `/report?limit=0` every refresh,
//! and the logs of the debug tracker selected in the Debug tab, on a thread of its own. Failures are messages for the status bar, never errors:
//! the console keeps polling and picks up a server that comes back.

use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::Value;

use super::state::Wanted;

/// What one poll brought.
#[derive(Debug)]
pub(crate) enum Update {
    /// The server answered: its status and the whole report.
    Data { status: Value, report: Value },
    /// The server could not be reached or refused; why, in a few words.
    Failed(String),
    /// The log records of the followed debug tracker (`path`), or why they are missing.
    Logs { path: String, logs: Result<Value, String> },
}

pub(crate) struct Client {
    agent: ureq::Agent,
    address: String,
    token: Option<String>,
}

impl Client {
    /// A client of the server at `address` (`host:port`).
    pub(crate) fn new(address: String, token: Option<String>, refresh: Duration) -> Self {
        // A poll never outlives a few refreshes, so a hung server cannot freeze the status.
        let timeout = (refresh * 3).max(Duration::from_secs(2));
        let config = ureq::Agent::config_builder().timeout_global(Some(timeout)).http_status_as_error(false).build();
        Self { agent: config.into(), address, token }
    }

    pub(crate) fn address(&self) -> &str {
        &self.address
    }

    pub(crate) fn poll(&self) -> Update {
        let status = match self.get("/profiler_status") {
            Ok(v) => v,
            Err(e) => return Update::Failed(e),
        };
        match self.get("/report?limit=0") {
            Ok(report) => Update::Data { status, report },
            Err(e) => Update::Failed(e),
        }
    }

    fn get(&self, path: &str) -> Result<Value, String> {
        let mut request = self.agent.get(format!("http://{}{path}", self.address));
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        let mut response = request.call().map_err(|e| format!("cannot reach http://{}: {e}", self.address))?;
        let status = response.status().as_u16();
        let body = response.body_mut().read_to_string().map_err(|e| format!("bad response: {e}"))?;
        let value: Value = serde_json::from_str(&body).map_err(|e| format!("{path} is not JSON: {e}"))?;
        match status {
            200 => Ok(value),
            401 => Err("the server wants a token: pass --token or set HOTPATH_AUTH_TOKEN".into()),
            _ => Err(format!("{path}: HTTP {status}: {}", value["error"].as_str().unwrap_or("error"))),
        }
    }
}

/// Polls every `refresh` until the receiver is dropped; after each report, the logs
/// at the path `wanted` holds, if any.
pub(crate) fn spawn_poller(client: Client, refresh: Duration, wanted: Wanted) -> std::io::Result<Receiver<Update>> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new().name("poller".into()).spawn(move || loop {
        let update = client.poll();
        let up = matches!(update, Update::Data { .. });
        if tx.send(update).is_err() {
            return;
        }
        if let Some(path) = wanted.get().filter(|_| up) {
            let logs = client.get(&path);
            if tx.send(Update::Logs { path, logs }).is_err() {
                return;
            }
        }
        std::thread::sleep(refresh);
    })?;
    Ok(rx)
}
