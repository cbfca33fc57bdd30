//! The hook through which the live surfaces (HTTP server, Prometheus, MCP) start with
//! a session, without the session depending on them: the live crate registers a
//! starter before the session begins, and the session calls it once.

use std::sync::OnceLock;

use crate::config::ServerSettings;

/// Starts the live surfaces for a session; an error is a warning for the report header.
pub type LiveStarter = fn(&ServerSettings) -> Result<(), String>;

static STARTER: OnceLock<LiveStarter> = OnceLock::new();

/// Registers the live surfaces; the first registration wins.
pub fn register_live(starter: LiveStarter) {
    let _ = STARTER.set(starter);
}

/// Starts them, if registered and enabled.
pub(crate) fn start(settings: &ServerSettings) {
    if !settings.enabled {
        return;
    }
    if let Some(start) = STARTER.get() {
        if let Err(message) = start(settings) {
            hotpath_engine::diag::warn_in_report(message);
        }
    }
}
