//! `future!(.., log = true)` and `#[future_fn(log = true)]` on a future value: a
//! measured future that also keeps the `Debug` text of its output.

use std::fmt::Debug;
use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::task::{Context, Poll};

use pin_project_lite::pin_project;

use super::future::MeasuredFuture;
use super::logged::log_value;
use crate::record::FnSite;

pin_project! {
    /// A future wrapped by `future!(.., log = true)`; resolves to what the inner future
    /// resolves to.
    pub struct LoggedFuture<F> {
        #[pin]
        inner: MeasuredFuture<F>,
        site: &'static FnSite,
    }
}

/// Wraps a future measured as `site` and logs its output (the expansion of
/// `future!(.., log = true)`).
pub fn future_logged<F>(site: &'static FnSite, inner: F) -> LoggedFuture<F::IntoFuture>
where
    F: IntoFuture,
    F::Output: Debug,
{
    LoggedFuture { inner: MeasuredFuture::new(site, inner.into_future()), site }
}

impl<F> Future for LoggedFuture<F>
where
    F: Future,
    F::Output: Debug,
{
    type Output = F::Output;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let result = this.inner.poll(cx);
        if let Poll::Ready(value) = &result {
            log_value(this.site, value);
        }
        result
    }
}
