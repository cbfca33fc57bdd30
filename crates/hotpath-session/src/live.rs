//! The hook through which the live surfaces (HTTP server, Prometheus, MCP, the OTLP
//! push) start with a session, without the session depending on them: the live crate
//! registers a starter before the session begins, and the session calls it once; and
//! a session-end hook, called before each final report while the session still
//! answers live snapshots (the OTLP exporter's last push of the session).

use std::sync::OnceLock;

use crate::config::ServerSettings;

/// Starts the live surfaces for a session; an error is a warning for the report header.
pub type LiveStarter = fn(&ServerSettings) -> Result<(), String>;

/// Called with a session's id just before its final report is built.
pub type SessionEnding = fn(u64);

static STARTER: OnceLock<LiveStarter> = OnceLock::new();
static ENDING: OnceLock<SessionEnding> = OnceLock::new();

/// Registers the live surfaces; the first registration wins.
pub fn register_live(starter: LiveStarter) {
    let _ = STARTER.set(starter);
}

/// Registers the session-end hook; the first registration wins.
pub fn register_session_ending(hook: SessionEnding) {
    let _ = ENDING.set(hook);
}

/// Starts them, if registered and enabled (the server, or the OTLP export).
pub(crate) fn start(settings: &ServerSettings) {
    if !settings.enabled && settings.otlp.is_none() {
        return;
    }
    match STARTER.get() {
        Some(start) => {
            if let Err(message) = start(settings) {
                hotpath_engine::diag::warn_in_report(message);
            }
        }
        // The push was asked for by name; the server is on by default, so only the push
        // says that this build cannot do it.
        None if settings.otlp.is_some() => hotpath_engine::diag::warn_in_report(
            "HOTPATH_OTLP_ENDPOINT is ignored: this build has no `live` feature (hotpath's default), so nothing is pushed"
                .to_string(),
        ),
        None => {}
    }
}

/// Tells the live surfaces that session `id` is about to write its final report.
pub(crate) fn ending(id: u64) {
    if let Some(hook) = ENDING.get() {
        hook(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{OtlpEndpoint, OtlpSettings};

    /// Without the live crate (no starter registered, as in a build without `live`), an
    /// OTLP endpoint the user set is named in a warning rather than silently dropped.
    #[test]
    fn an_endpoint_without_the_live_feature_is_a_warning() {
        let endpoint = OtlpEndpoint::parse("http://127.0.0.1:4318").unwrap();
        let otlp = OtlpSettings { endpoint, interval: std::time::Duration::from_secs(10), resource: Vec::new() };
        start(&ServerSettings { otlp: Some(otlp), ..ServerSettings::default() });
        let warnings = hotpath_engine::diag::report_warnings();
        assert!(warnings.iter().any(|w| w.starts_with("HOTPATH_OTLP_ENDPOINT is ignored")), "{warnings:?}");
    }
}
