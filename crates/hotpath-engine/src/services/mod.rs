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

mod cell;
mod collect;
mod hash;
mod http;
mod names;
mod recorder;
mod rows;
mod scope;
mod server;
mod sql;
mod text;
mod totals;
pub mod wrap;

pub use http::instrument::{InstrumentHttpClient, ReqwestHttpMiddleware, UreqHttpMiddleware};
pub use scope::set_route_scope;
#[cfg(feature = "axum")]
pub use server::axum::{AxumFuture, AxumLayer, AxumService};
#[cfg(feature = "diesel")]
pub use sql::diesel::instrument_diesel_sql;
#[cfg(feature = "sqlx")]
pub use sql::sqlx::{sqlx_tracing_layer, SqlxLayer};

pub(crate) use collect::{configure, sections, Sections};
pub(crate) use rows::any;
