//! The HTTP and SQL instruments' cost, shared by this repository's services bench
//! (tests/services/benches/services_overhead.rs) and the hotpath 0.30.3 side
//! (bench/hotpath-0303, feature `services`), so both run exactly the same code.
//!
//! - axum: ns per request through an axum 0.8 `Router` called in-process (no socket),
//!   with and without the profiler's layer, best of 7 rounds;
//! - sqlx: ns per `sqlx::query` tracing event shaped as sqlx 0.8 emits it, through a
//!   `tracing_subscriber` registry with and without the profiler's sqlx layer.
//!
//! Output: one line of `key=value` fields (`axum_plain_ns`, `axum_ns`, `sqlx_plain_ns`,
//! `sqlx_ns`).

use std::any::Any;
use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

use axum::body::Body;
use axum::extract::Path;
use axum::http::Request;
use axum::routing::get;
use axum::Router;
use tower_service::Service;

/// What each side provides.
pub(crate) struct ServicesSubject {
    pub(crate) name: &'static str,
    /// Starts a profiling session with report output off; dropped to end it.
    pub(crate) start: fn() -> Box<dyn Any>,
    /// The router with the profiler's axum layer.
    pub(crate) layer: fn(Router) -> Router,
    /// A registry with the profiler's sqlx layer.
    pub(crate) sqlx: fn() -> tracing::Dispatch,
}

fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

fn router() -> Router {
    Router::new().route("/users/{id}", get(|Path(id): Path<u32>| async move { black_box(id).to_string() }))
}

/// Best of seven rounds of `n` requests, ns per request.
fn per_request(router: &mut Router, n: u64) -> f64 {
    best(n, || {
        let request = Request::get("/users/42").body(Body::empty()).unwrap();
        let response = block_on(router.call(request)).unwrap();
        black_box(response.status());
    })
}

/// One query event as sqlx 0.8's query logger emits it for a short statement.
fn query_event() {
    tracing::event!(
        target: "sqlx::query",
        tracing::Level::DEBUG,
        summary = "SELECT name FROM users WHERE id = ?",
        db.statement = "",
        rows_affected = 0u64,
        rows_returned = 1u64,
        elapsed_secs = 0.000_05f64,
    );
}

fn per_event(dispatch: &tracing::Dispatch, n: u64) -> f64 {
    tracing::dispatcher::with_default(dispatch, || best(n, query_event))
}

fn best(n: u64, mut op: impl FnMut()) -> f64 {
    (0..7)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..n {
                op();
            }
            start.elapsed().as_nanos() as f64 / n as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Runs both measurements and prints the fields.
pub(crate) fn run(subject: ServicesSubject) {
    let n: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(200_000);
    let session = (subject.start)();
    let mut plain = router();
    let mut layered = (subject.layer)(router());
    let axum_plain = per_request(&mut plain, n);
    let axum = per_request(&mut layered, n);
    let bare = tracing::Dispatch::new(tracing_subscriber::registry());
    let sqlx_plain = per_event(&bare, n);
    let sqlx = per_event(&(subject.sqlx)(), n);
    drop(session);
    println!(
        "{} services axum_plain_ns={axum_plain:.1} axum_ns={axum:.1} sqlx_plain_ns={sqlx_plain:.1} sqlx_ns={sqlx:.1}",
        subject.name
    );
}
