//! HTTP and SQL instruments: requests an axum server answers (`server`), calls an
//! HTTP client makes (`http`: reqwest through reqwest-middleware, ureq) and SQL
//! queries (`sql`: sqlx's tracing events, diesel's instrumentation), each adapter
//! behind the feature of its library.
//!
//! They share one mechanism:
//! - `rows`: rows keyed at run time (a route, an endpoint, a query, with the route and
//!   function that issued it), found lock-free, bounded by `HOTPATH_ENTRIES_LIMIT`
//!   (then `<other>`);
//! - `cell`, `recorder`: per-thread cells by row id, written with plain stores, folded
//!   when a thread exits, as for functions;
//! - `scope`: the route scope, set around every poll of a request's handler;
//! - `text`, `hash`: key texts built on the stack and hashed in parts; the SQL side
//!   caches raw statement → row per thread, so a repeated statement is not normalized
//!   again.
//!
//! Durations are read from `std::time::Instant` (nanoseconds), the clock sqlx reports
//! in too; function time inside a route scope comes from the frames, in clock ticks.

//! Each piece exists only with the features that use it: `server` with `axum`, the
//! client side of `http` with `services-http` (reqwest, ureq), `sql` with
//! `services-sql` (sqlx, diesel), the shared pieces with any of them (`services`).
//! The middleware types and `InstrumentHttpClient` are public API with `hotpath` on
//! whatever the features, so they always exist.

#[cfg(feature = "services")]
mod cell;
#[cfg(feature = "services")]
mod collect;
#[cfg(feature = "services")]
mod hash;
mod http;
#[cfg(feature = "services")]
mod log_record;
#[cfg(feature = "services")]
pub(crate) mod logs;
#[cfg(any(feature = "services-http", feature = "services-sql"))]
mod names;
#[cfg(feature = "services")]
mod recorder;
#[cfg(feature = "services")]
mod rows;
#[cfg(feature = "services")]
mod scope;
#[cfg(feature = "axum")]
mod server;
#[cfg(feature = "services-sql")]
mod sql;
#[cfg(any(feature = "axum", feature = "services-http"))]
mod text;
#[cfg(feature = "services")]
mod totals;
pub mod wrap;

pub use http::instrument::{InstrumentHttpClient, ReqwestHttpMiddleware, UreqHttpMiddleware};
#[cfg(feature = "axum")]
pub use scope::set_route_scope;
#[cfg(feature = "axum")]
pub use server::axum::{AxumFuture, AxumLayer, AxumService};
#[cfg(feature = "diesel")]
pub use sql::diesel::instrument_diesel_sql;
#[cfg(feature = "sqlx")]
pub use sql::sqlx::{sqlx_tracing_layer, SqlxLayer};

#[cfg(feature = "services")]
pub(crate) use collect::{configure, sections, Sections};
#[cfg(feature = "services")]
pub(crate) use rows::any;

/// Every HTTP route, HTTP endpoint and SQL row made so far: what timeline events of
/// kind `Request` name, and what a new session's triggers apply to.
#[cfg(feature = "services")]
pub(crate) fn rows() -> Vec<&'static rows::Row> {
    let mut all = Vec::new();
    #[cfg(feature = "axum")]
    all.extend(server::serving::ROUTES.all());
    #[cfg(feature = "services-http")]
    all.extend(http::call::ENDPOINTS.all());
    #[cfg(feature = "services-sql")]
    all.extend(sql::record::QUERIES.all());
    all
}
