//! The async side of the markers: an async body whose every poll runs inside its
//! site's marker function, so that Callgrind counts the instructions of each poll
//! under the marker's name, whichever thread polls.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// The marker: polls the body once.
type PollFn<F> = fn(Pin<&mut F>, &mut Context<'_>) -> Poll<<F as Future>::Output>;

pin_project_lite::pin_project! {
    /// Wraps the body of an async function measured with `hotpath-callgrind`; `poll`
    /// is the site's marker function (`__hotpath_cg_<tag>`), which polls the body. A
    /// function pointer, called directly: through a generic `FnMut` the call would go
    /// through `FnMut::call_mut`, a function shared by every such call in the program,
    /// which blurs the call graph that self counts are read from.
    pub struct Marked<F: Future> {
        #[pin]
        inner: F,
        poll: PollFn<F>,
    }
}

impl<F: Future> Marked<F> {
    /// Wraps `inner`, to be polled through `poll`.
    #[inline]
    pub fn new(inner: F, poll: PollFn<F>) -> Self {
        Self { inner, poll }
    }
}

impl<F: Future> Future for Marked<F> {
    type Output = F::Output;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        (this.poll)(this.inner, cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker<F: Future>(f: Pin<&mut F>, cx: &mut Context<'_>) -> Poll<F::Output> {
        f.poll(cx)
    }

    #[test]
    fn polls_the_body_through_the_marker() {
        let mut fut = std::pin::pin!(Marked::new(async { 7 }, marker));
        let mut cx = Context::from_waker(std::task::Waker::noop());
        assert_eq!(fut.as_mut().poll(&mut cx), Poll::Ready(7));
    }
}
