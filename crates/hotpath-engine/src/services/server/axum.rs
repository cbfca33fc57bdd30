//! The axum 0.8 adapter: a tower layer that times every request of a router and
//! attributes it to the route axum matched (`MatchedPath`).
//!
//! `Router::layer` runs it after routing, on every route and on the fallback, so the
//! route template is known when the request arrives. Nothing is allocated per request:
//! the row is found by its key text (built on the stack), the method is cloned
//! (standard methods are inline) and the URI is cloned (reference counts), for the
//! row's log (its path, never the query) and to name a fallback's answer by its path.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::extract::MatchedPath;
use http::{Method, Request, Response, Uri};
use tower_layer::Layer;
use tower_service::Service;

use super::Serving;
use crate::switch;

/// Times the requests of an axum `Router`: `router.layer(AxumLayer::new())`, which is
/// what `hotpath::axum!(router)` expands to. Add it last, after every `route`,
/// `fallback` and `nest`.
#[derive(Clone, Copy, Debug, Default)]
pub struct AxumLayer;

impl AxumLayer {
    /// The layer.
    pub const fn new() -> Self {
        Self
    }
}

impl<S> Layer<S> for AxumLayer {
    type Service = AxumService<S>;
    fn layer(&self, inner: S) -> AxumService<S> {
        AxumService { inner }
    }
}

/// The service [`AxumLayer`] wraps a route in.
#[derive(Clone, Debug)]
pub struct AxumService<S> {
    inner: S,
}

thread_local! {
    /// True while a hotpath layer calls or polls the service it wraps: a hotpath layer
    /// inside it (a router layered twice, a layered router nested in another) passes
    /// the request through, so it counts once.
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
}

fn active<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            ACTIVE.with(|a| a.set(self.0));
        }
    }
    let _restore = Restore(ACTIVE.with(|a| a.replace(true)));
    f()
}

impl<S, B, RB> Service<Request<B>> for AxumService<S>
where
    S: Service<Request<B>, Response = Response<RB>>,
{
    type Response = Response<RB>;
    type Error = S::Error;
    type Future = AxumFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> AxumFuture<S::Future> {
        if !switch::enabled() || ACTIVE.with(Cell::get) {
            return AxumFuture { inner: self.inner.call(request), tracked: None };
        }
        let method = request.method().clone();
        let matched = request.extensions().get::<MatchedPath>();
        let serving = Serving::begin(method.as_str(), matched.map(MatchedPath::as_str));
        let uri = request.uri().clone();
        let inner = active(|| self.inner.call(request));
        AxumFuture { inner, tracked: Some(Tracked { serving, method, uri }) }
    }
}

struct Tracked {
    serving: Serving,
    method: Method,
    uri: Uri,
}

pin_project_lite::pin_project! {
    /// The response future of [`AxumService`].
    pub struct AxumFuture<F> {
        #[pin]
        inner: F,
        tracked: Option<Tracked>,
    }
}

impl<F, RB, E> Future for AxumFuture<F>
where
    F: Future<Output = Result<Response<RB>, E>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let Some(tracked) = this.tracked.as_mut() else { return this.inner.poll(cx) };
        let inner = this.inner;
        let result = tracked.serving.poll(|| active(|| inner.poll(cx)));
        if let Poll::Ready(outcome) = &result {
            // A service error never reaches the client as a response of ours; axum's
            // routes cannot fail, so count it as a server error.
            let status = outcome.as_ref().map_or(500, |r| r.status().as_u16());
            let path = tracked.uri.path();
            tracked.serving.finish(tracked.method.as_str(), path, status);
            *this.tracked = None;
        }
        result
    }
}
