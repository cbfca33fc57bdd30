//! The live surfaces of hotpath: an HTTP server with one JSON endpoint per report
//! section, `/metrics` for Prometheus and, with the `mcp` feature, MCP for AI agents
//! at `/mcp`, and the OTLP metrics push (`HOTPATH_OTLP_ENDPOINT`). The session starts them through the hook [`install`] registers, and
//! they read the session's typed snapshots; nothing here runs on the program's
//! threads. Without the `server` feature this crate is empty. Not a public API:
//! programs use the `hotpath` crate (feature `live`, on by default).

#![deny(missing_docs)]

#[cfg(feature = "mcp")]
mod mcp;
#[cfg(feature = "server")]
mod otlp;
#[cfg(feature = "server")]
mod otlp_stats;
#[cfg(feature = "server")]
mod server;

#[cfg(feature = "server")]
pub use server::{mount, ChunkedBody, HttpRequest, Mount, MountConnection};

/// Registers the live surfaces with the session, which starts them when it starts
/// (unless `HOTPATH_METRICS_SERVER_OFF`). Does nothing without the `server` feature.
pub fn install() {
    #[cfg(feature = "server")]
    hotpath_session::register_live(start);
}

#[cfg(feature = "server")]
fn start(settings: &hotpath_session::ServerSettings) -> Result<(), String> {
    // The OTLP push needs no server: it runs with HOTPATH_METRICS_SERVER_OFF too.
    if let Some(otlp) = &settings.otlp {
        otlp::start(otlp);
    }
    if !settings.enabled {
        return Ok(());
    }
    // Mounted first, so that no request can reach the server before `/mcp` exists.
    #[cfg(feature = "mcp")]
    mcp::start(!settings.tokens_for(hotpath_session::Surface::Mcp).is_empty() || settings.refuse_all);
    server::start(settings)
}

/// Locking never panics: a poisoned lock still holds consistent data, because every
/// critical section here only replaces or adds whole values.
#[cfg(feature = "server")]
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
