//! The live metrics server: JSON per report section, `/profiler_status`,
//! `/metrics` for Prometheus, and paths mounted by other sinks (MCP).
//!
//! Started by the main guard unless `HOTPATH_METRICS_SERVER_OFF` is set. It binds
//! synchronously, so a port in use is known at once and becomes a warning in the
//! report header; then the `hp-listen` thread (`reactor`) receives each request
//! without blocking, within a deadline, and a fixed pool of `hp-http-*` threads
//! (`pool`) answers complete ones, one request per connection (`http`). Data comes from
//! a snapshot cached for 200 ms (`snapshot`), built from the recorders by the
//! collector, never on the program's threads.
//!
//! - `routes`: path → handler, and the one table of section endpoints.
//! - `query`: `?limit=` and `?focus=` for any section.
//! - `prometheus`, `prometheus_flow`: the text exposition (the second for data-flow and I/O sections).
//! - `auth`: the constant-time bearer-token check.
//! - `mount`: the plug-in point for other handlers (`/mcp`).

mod auth;
mod conn;
mod http;
mod mount;
mod poll;
mod pool;
mod prometheus;
mod prometheus_flow;
mod query;
mod reactor;
mod routes;
mod snapshot;
#[cfg(test)]
mod tests;

use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

pub use http::HttpRequest;
pub use mount::{mount, ChunkedBody, Mount, MountConnection};
// What the MCP tools read: the same snapshot, status and section table as the endpoints.
#[cfg(feature = "mcp")]
pub(crate) use routes::{status, SECTIONS};
#[cfg(feature = "mcp")]
pub(crate) use snapshot::live as live_snapshot;
pub(crate) use snapshot::Snapshot;

use hotpath_engine::diag as output;
use hotpath_session::ServerSettings;

/// What every worker shares.
pub(crate) struct State {
    pub(crate) token: Option<String>,
    /// The token was set but is unusable: every request gets 401.
    pub(crate) refuse_all: bool,
    pub(crate) address: SocketAddr,
    /// Where snapshots come from: the session's cache, or a fixed one in tests.
    pub(crate) source: fn() -> Option<Arc<Snapshot>>,
    pub(crate) stats: Stats,
}

/// Responses by status class (index 1..=5 for 1xx..5xx), shown on `/metrics`.
#[derive(Default)]
pub(crate) struct Stats {
    classes: [AtomicU64; 6],
}

impl Stats {
    pub(crate) fn count(&self, status: u16) {
        if let Some(c) = self.classes.get(usize::from(status / 100)) {
            c.fetch_add(1, Relaxed);
        }
    }

    /// `(class digit, count)` for 2xx to 5xx.
    pub(crate) fn responses(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        (2..=5).map(|c| (c, self.classes[c].load(Relaxed)))
    }
}

/// Where the session's server listens, and whether it requires a token.
static BOUND: std::sync::OnceLock<(SocketAddr, bool)> = std::sync::OnceLock::new();

/// The bound address and token requirement, once the server is listening.
#[cfg(feature = "mcp")]
pub(crate) fn bound() -> Option<(SocketAddr, bool)> {
    BOUND.get().copied()
}

/// Binds and starts the server; the error is the warning the report repeats.
pub(crate) fn start(settings: &ServerSettings) -> Result<(), String> {
    let state = |address| State {
        token: settings.token.clone(),
        refuse_all: settings.refuse_all,
        address,
        source: snapshot::live,
        stats: Stats::default(),
    };
    listen(settings, state).map(|_| ())
}

/// Binds `settings`' address and spawns the pool; returns the bound address.
pub(crate) fn listen(settings: &ServerSettings, state: impl FnOnce(SocketAddr) -> State) -> Result<SocketAddr, String> {
    let wanted = SocketAddr::new(settings.host, settings.port);
    let listener = TcpListener::bind(wanted).map_err(|e| {
        format!("metrics server not started: cannot listen on {wanted} ({e}); set HOTPATH_METRICS_PORT to a free port")
    })?;
    let address = listener.local_addr().unwrap_or(wanted);
    let state = state(address);
    let _ = BOUND.set((address, state.token.is_some() || state.refuse_all));
    reactor::spawn(listener, Arc::new(state))
        .map_err(|e| format!("metrics server not started: cannot spawn its thread ({e})"))?;
    if settings.port == 0 {
        // The system picked the port: nobody could find the server without this line.
        output::note(&format!("metrics server listening on http://{address}"));
    }
    Ok(address)
}
