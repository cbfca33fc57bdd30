//! The live metrics server: JSON per report section, `/profiler_status`,
//! `/metrics` for Prometheus, and paths mounted by other sinks (MCP).
//!
//! Started with the session unless `HOTPATH_METRICS_SERVER_OFF` is set. It binds
//! synchronously, so a port in use is known at once and becomes a warning in the
//! report header; then the `hp-listen` thread (`reactor`) receives each request
//! without blocking, within a deadline, and a fixed pool of `hp-http-*` threads
//! (`pool`) answers complete ones, one request per connection (`http`). Data comes from
//! a typed snapshot cached for 200 ms (`snapshot`), built from the recorders by the
//! collector, never on the program's threads.
//!
//! - `routes`: path → handler; section endpoints come from the model's section table.
//! - `rendered`: each response rendered once per snapshot, path and query, and shared.
//! - `pending`: response bodies, shared and counted in a 16 MiB budget (503 beyond it).
//! - `debug_logs`: `/debug/{kind}/{id}/logs`, the log records of one debug tracker, and
//!   `/{section}/{name}/logs`, the `log = true` values of one row.
//! - `query`: `?limit=` and `?focus=` for any section.
//! - `timeline`: `/timeline`, the flight recorder's trace (Perfetto or Chrome JSON).
//! - `prometheus`: the text exposition of the sections' typed metric families.
//! - `auth`: the constant-time bearer-token check, with the tokens of the path's surface.
//! - `mount`: the plug-in point for other handlers (`/mcp`).
//! - `state`: what the workers share.
//!
//! The OTLP push (`crate::otlp`) reads the same snapshots and families; it is no part
//! of the server and runs with the server off too.

mod auth;
mod conn;
mod debug_logs;
mod http;
mod mount;
mod pending;
mod poll;
mod pool;
mod prometheus;
mod query;
mod reactor;
mod rendered;
mod routes;
mod snapshot;
mod state;
#[cfg(test)]
mod tests;
mod timeline;

use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;

pub use http::HttpRequest;
pub use mount::{mount, ChunkedBody, Mount, MountConnection};
// What the MCP tools read: the same snapshot and status as the endpoints.
#[cfg(feature = "mcp")]
pub(crate) use debug_logs::keep as keep_debug_logs;
#[cfg(feature = "mcp")]
pub(crate) use debug_logs::{keep_rows as keep_row_logs, LOGGED_SECTIONS};
#[cfg(feature = "mcp")]
pub(crate) use routes::status;
// The OTLP exporter reads the same snapshots.
pub(crate) use snapshot::{fresh as fresh_snapshot, live as live_snapshot, Snapshot};
#[cfg(feature = "mcp")]
pub(crate) use state::bound;
pub(crate) use state::{State, Stats};
#[cfg(feature = "mcp")]
pub(crate) use timeline::{seconds_to_ns, OFF};

use hotpath_engine::diag;
use hotpath_session::ServerSettings;

/// Binds and starts the server; the error is the warning the report repeats.
pub(crate) fn start(settings: &ServerSettings) -> Result<(), String> {
    let state = |address| State {
        tokens: state::Tokens::new(settings),
        address,
        source: snapshot::live,
        rendered: Default::default(),
        stats: Stats::default(),
        exposition: prometheus::Exposition::new(&settings.labels),
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
    let _ = state::BOUND.set((address, state.tokens.guarded()));
    reactor::spawn(listener, Arc::new(state)).map_err(|e| format!("metrics server not started: {e}"))?;
    if settings.port == 0 {
        // The system picked the port: nobody could find the server without this line.
        diag::note(&format!("metrics server listening on http://{address}"));
    }
    Ok(address)
}
