//! HTTP and SQL instruments, behind the features hotpath 0.30 names them by:
//! `axum-0-8`, `reqwest-0-12`, `reqwest-0-13`, `ureq-3`, `sqlx`, `diesel`.
//!
//! With `hotpath` off every item here is a pass-through that needs nothing beyond the
//! library the program already uses: `axum!` and `http!` return their argument,
//! [`AxumLayer`] is a tower layer that returns the service it is given,
//! [`UreqHttpMiddleware`] forwards the request, `sqlx_tracing_layer()` is
//! tracing-subscriber's `Identity` and `instrument_diesel_sql()` does nothing. As in
//! hotpath 0.30, `ReqwestHttpMiddleware` and `InstrumentHttpClient` exist only with
//! `hotpath` on (reqwest-middleware is linked only then): put code that names them
//! behind the program's own `hotpath` feature, or use `http!`.

/// Times the requests of an axum 0.8 router, per method and matched route:
/// `hotpath::axum!(router)` is `router.layer(hotpath::AxumLayer::new())`. Wrap the
/// finished router (after the last `route`, `nest` and `fallback`).
///
/// Reports, per `METHOD /route/{param}`: requests, status classes, latency to the
/// response head (average, percentiles), requests in flight and the most at once,
/// and with `hotpath-alloc` the bytes and allocations per request. Requests no route
/// matched count as `METHOD <unmatched>` when answered with an error status, else by
/// path with ids folded (a fallback that serves pages). With route scope (on unless
/// `HOTPATH_ROUTE_SCOPE=0`) the SQL queries, HTTP calls and measured-function time of
/// a request's handler are attributed to its route.
///
/// Needs the `axum-0-8` feature with `hotpath` (a compile error says so otherwise).
/// Cost: off, none (the router is returned). On, per request two clock reads, a
/// lookup of the route's row by its text, an atomic add on the route's in-flight
/// counter, and per poll of the handler a thread-local swap; no allocation.
#[cfg(all(feature = "hotpath", feature = "axum-0-8"))]
#[macro_export]
macro_rules! axum {
    ($router:expr $(,)?) => {
        $router.layer($crate::AxumLayer::new())
    };
}

/// Times the requests of an axum router; see the feature-on documentation.
#[cfg(all(feature = "hotpath", not(feature = "axum-0-8")))]
#[macro_export]
macro_rules! axum {
    ($router:expr $(,)?) => {
        ::core::compile_error!("hotpath::axum! needs hotpath's `axum-0-8` feature")
    };
}

/// Times the requests of an axum router; with `hotpath` off, returns the router.
#[cfg(not(feature = "hotpath"))]
#[macro_export]
macro_rules! axum {
    ($router:expr $(,)?) => {
        $router
    };
}

/// Times the calls of an HTTP client, per normalized endpoint:
/// `http!(reqwest::Client::new())` returns a reqwest-middleware
/// `ClientWithMiddleware` (name it [`wrap::reqwest::Client`](crate::wrap)),
/// `http!(ureq::Agent::config_builder())` the same builder with
/// `UreqHttpMiddleware` added; `label = expr` prefixes the rows (`github: GET ...`).
///
/// Rows are `METHOD host/path` with path segments that are numbers, UUIDs or 16+ hex
/// digits folded to `{id}`, an explicit port folded to `:{port}` (as hotpath 0.30 does,
/// so a test server on a random port keeps one row), the query dropped. Reported:
/// calls, status classes, errors (no response, or status >= 400), latency to the
/// response head, `Content-Length` bytes, and the route scope the call was made in.
///
/// Features `reqwest-0-12`, `reqwest-0-13`, `ureq-3`. Cost: off, none (the client is
/// returned, the label not evaluated). On, per call two clock reads and a lookup of
/// the endpoint's row by its text, built on the stack.
#[cfg(feature = "hotpath")]
#[macro_export]
macro_rules! http {
    ($client:expr $(,)?) => {
        $crate::InstrumentHttpClient::instrument_http($client, ::core::option::Option::None)
    };
    ($client:expr, label = $label:expr $(,)?) => {
        $crate::InstrumentHttpClient::instrument_http(
            $client,
            ::core::option::Option::Some(::std::string::ToString::to_string(&$label)),
        )
    };
}

/// Times the calls of an HTTP client; with `hotpath` off, returns the client.
#[cfg(not(feature = "hotpath"))]
#[macro_export]
macro_rules! http {
    ($client:expr $(,)?) => {
        $client
    };
    ($client:expr, label = $label:expr $(,)?) => {{
        let _ = || {
            let _ = &$label;
        };
        $client
    }};
}

#[cfg(all(feature = "hotpath", feature = "axum-0-8"))]
pub use hotpath_engine::services::AxumLayer;

/// A tower layer that returns the service it wraps: `AxumLayer` with `hotpath` off.
#[cfg(all(not(feature = "hotpath"), feature = "axum-0-8"))]
#[derive(Clone, Copy, Debug, Default)]
pub struct AxumLayer;

#[cfg(all(not(feature = "hotpath"), feature = "axum-0-8"))]
impl AxumLayer {
    /// The layer.
    pub const fn new() -> Self {
        Self
    }
}

#[cfg(all(not(feature = "hotpath"), feature = "axum-0-8"))]
impl<S> tower_layer::Layer<S> for AxumLayer {
    type Service = S;
    fn layer(&self, inner: S) -> S {
        inner
    }
}

#[cfg(feature = "hotpath")]
pub use hotpath_engine::services::{InstrumentHttpClient, ReqwestHttpMiddleware, UreqHttpMiddleware};

/// A ureq middleware that forwards every request: `UreqHttpMiddleware` with `hotpath` off.
#[cfg(all(not(feature = "hotpath"), feature = "ureq-3"))]
#[derive(Clone, Debug, Default)]
pub struct UreqHttpMiddleware;

#[cfg(all(not(feature = "hotpath"), feature = "ureq-3"))]
impl UreqHttpMiddleware {
    /// The middleware.
    pub fn new() -> Self {
        Self
    }

    /// The middleware; the label is dropped.
    pub fn with_label(label: impl Into<String>) -> Self {
        let _ = label;
        Self
    }
}

#[cfg(all(not(feature = "hotpath"), feature = "ureq-3"))]
impl ureq::middleware::Middleware for UreqHttpMiddleware {
    fn handle(
        &self,
        request: ureq::http::Request<ureq::SendBody>,
        next: ureq::middleware::MiddlewareNext,
    ) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        next.handle(request)
    }
}

/// The `tracing` layer that records sqlx's queries:
/// `tracing_subscriber::registry().with(hotpath::sqlx_tracing_layer()).init()`.
///
/// It reads sqlx's `sqlx::query` events (sqlx 0.8 and 0.9; sqlx itself is not linked):
/// per normalized statement (literals and placeholders as `?`, `IN (...)` folded) the
/// calls, rows returned and affected, and sqlx's own timing. A global filter that
/// drops `sqlx::query` events at debug level hides them from it too. The statement
/// text appears only normalized, unless `HOTPATH_SQL_RAW_LOGS=1`. With SQLite, sqlx
/// runs statements on its own worker thread, so they are not attributed to a route.
///
/// Cost: off, none (`Identity`). On, per query one hash of its text and a probe of
/// the thread's cache; the first run of a statement on a thread normalizes it.
#[cfg(all(feature = "hotpath", feature = "sqlx"))]
pub use hotpath_engine::services::sqlx_tracing_layer;

/// The sqlx query layer; with `hotpath` off, tracing-subscriber's `Identity`.
#[cfg(all(not(feature = "hotpath"), feature = "sqlx"))]
pub fn sqlx_tracing_layer() -> tracing_subscriber::layer::Identity {
    tracing_subscriber::layer::Identity::new()
}

/// Measures diesel's queries on every connection established after this call
/// (diesel's default instrumentation): per normalized statement the calls, errors
/// and time from start to finish, on the calling thread, so queries a handler runs
/// are attributed to its route. Transaction statements are not counted.
///
/// Cost: off, none. On, per query two clock reads and the statement written into a
/// buffer the connection reuses, then hashed.
#[cfg(all(feature = "hotpath", feature = "diesel"))]
pub use hotpath_engine::services::instrument_diesel_sql;

/// Measures diesel's queries; with `hotpath` off, does nothing.
#[cfg(all(not(feature = "hotpath"), feature = "diesel"))]
pub fn instrument_diesel_sql() {}
