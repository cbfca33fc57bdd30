//! Route scope: while a server request's handler is polled, SQL queries, outgoing HTTP
//! calls and measured functions on that thread are attributed to its route.
//!
//! The scope lives in the request's future. Around every poll, on whichever thread
//! polls, a thread-local points at it and a window over the measured calls is opened
//! (`record::open_window`), exactly as `MeasuredFuture` pushes a frame per poll: no
//! state is left on a thread between polls, so `.await` and task migration are fine,
//! and `#[measure]`'s path is unchanged (function time comes from the frames' children
//! accumulator). Work the handler hands to another task or thread is outside the scope.

#[cfg(feature = "axum")]
use std::cell::Cell;
#[cfg(feature = "axum")]
use std::marker::PhantomData;
#[cfg(feature = "axum")]
use std::ptr;
#[cfg(feature = "axum")]
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use super::cell::ScopeCounts;
#[cfg(any(feature = "services-http", feature = "services-sql"))]
use super::rows::NONE;
#[cfg(feature = "axum")]
use crate::record::{self, Usage};

// Requests are scoped only with the server instrument (`axum`); without it the HTTP
// and SQL instruments see no scope (`NONE`).
#[cfg(feature = "axum")]
static ENABLED: AtomicBool = AtomicBool::new(true);

/// Turns route scope on or off (`HOTPATH_ROUTE_SCOPE`, `route_scope(bool)`); on by
/// default. Requests that start while it is off are not scoped.
#[cfg(feature = "axum")]
pub fn set_route_scope(on: bool) {
    ENABLED.store(on, Relaxed);
}

/// Whether route scope is on.
#[cfg(feature = "axum")]
pub(crate) fn enabled() -> bool {
    ENABLED.load(Relaxed)
}

/// One request's scope: its route's row id and what it has seen so far.
#[cfg(feature = "axum")]
pub(crate) struct Scope {
    /// Matched by the HTTP and SQL instruments when they count into the scope.
    #[cfg(any(feature = "services-http", feature = "services-sql"))]
    route: u32,
    counts: Cell<ScopeCounts>,
}

#[cfg(feature = "axum")]
thread_local! {
    static CURRENT: Cell<*const Scope> = const { Cell::new(ptr::null()) };
}

#[cfg(feature = "axum")]
impl Scope {
    pub(crate) fn new(route: u32) -> Self {
        #[cfg(not(any(feature = "services-http", feature = "services-sql")))]
        let _ = route;
        Self {
            #[cfg(any(feature = "services-http", feature = "services-sql"))]
            route,
            counts: Cell::new(ScopeCounts::default()),
        }
    }

    /// What the scope saw over all polls so far.
    pub(crate) fn counts(&self) -> ScopeCounts {
        self.counts.get()
    }

    /// Makes this the thread's scope for one poll.
    #[inline]
    pub(crate) fn enter(&self) -> Entered<'_> {
        let previous = CURRENT.with(|c| c.replace(ptr::from_ref(self)));
        Entered { scope: self, previous, saved: record::open_window(), _not_send: PhantomData }
    }
}

/// A scope entered for one poll; dropping it (also when the poll panics) restores the
/// thread's previous scope and adds the poll's measured-function time.
#[cfg(feature = "axum")]
pub(crate) struct Entered<'a> {
    scope: &'a Scope,
    previous: *const Scope,
    saved: Usage,
    /// Ends on the thread it began on.
    _not_send: PhantomData<*const ()>,
}

#[cfg(feature = "axum")]
impl Drop for Entered<'_> {
    #[inline]
    fn drop(&mut self) {
        let inside = record::close_window(self.saved);
        CURRENT.with(|c| c.set(self.previous));
        let mut counts = self.scope.counts.get();
        counts.function_ticks = counts.function_ticks.wrapping_add(inside.ticks);
        self.scope.counts.set(counts);
    }
}

/// Runs `f` on the scope of the request being polled on this thread, if any.
#[cfg(all(feature = "axum", any(feature = "services-http", feature = "services-sql")))]
#[inline]
fn with_current<R>(f: impl FnOnce(Option<&Scope>) -> R) -> R {
    let p = CURRENT.with(Cell::get);
    // SAFETY: a non-null pointer was set by `Scope::enter` from a live `&Scope` and is
    // reset by the `Entered` guard before that borrow ends, on this same thread.
    f(unsafe { p.as_ref() })
}

/// The route of the request being polled on this thread, or [`NONE`].
#[cfg(any(feature = "services-http", feature = "services-sql"))]
#[inline]
pub(crate) fn current_route() -> u32 {
    #[cfg(feature = "axum")]
    return with_current(|s| s.map_or(NONE, |s| s.route));
    #[cfg(not(feature = "axum"))]
    NONE
}

/// Counts a finished SQL query in the current scope, if it is still `route`'s.
#[cfg(feature = "services-sql")]
#[inline]
pub(crate) fn add_sql(route: u32, ns: u64) {
    add(route, |c| {
        c.sql_queries += 1;
        c.sql_ns += ns;
    });
}

/// Counts a finished outgoing HTTP call in the current scope, if it is still `route`'s.
#[cfg(feature = "services-http")]
#[inline]
pub(crate) fn add_http(route: u32, ns: u64) {
    add(route, |c| {
        c.http_calls += 1;
        c.http_ns += ns;
    });
}

#[cfg(any(feature = "services-http", feature = "services-sql"))]
fn add(route: u32, f: impl FnOnce(&mut ScopeCounts)) {
    if route == NONE {
        return;
    }
    // Without the server instrument every route is `NONE`: this is not reached.
    #[cfg(not(feature = "axum"))]
    let _ = f;
    #[cfg(feature = "axum")]
    with_current(|scope| {
        if let Some(scope) = scope.filter(|s| s.route == route) {
            let mut counts = scope.counts.get();
            f(&mut counts);
            scope.counts.set(counts);
        }
    });
}

/// The innermost measured function on this thread (a row's Source), or [`NONE`]:
/// kept by the frames' hooks (`record::hooks`).
#[cfg(any(feature = "services-http", feature = "services-sql"))]
#[inline]
pub(crate) fn current_function() -> u32 {
    crate::record::hooks::innermost().unwrap_or(NONE)
}

#[cfg(all(test, feature = "axum", feature = "services-http", feature = "services-sql"))]
mod tests {
    use super::*;

    #[test]
    fn scope_is_the_polled_requests_and_restored() {
        assert_eq!(current_route(), NONE);
        let outer = Scope::new(1);
        let inner = Scope::new(2);
        {
            let _a = outer.enter();
            assert_eq!(current_route(), 1);
            add_sql(1, 10);
            {
                let _b = inner.enter();
                add_sql(2, 5);
                add_http(1, 7); // began in another request's poll: not counted here
            }
            assert_eq!(current_route(), 1);
            add_http(1, 3);
        }
        assert_eq!(current_route(), NONE);
        add_sql(1, 100); // outside any poll
        let o = outer.counts();
        assert_eq!((o.sql_queries, o.sql_ns, o.http_calls, o.http_ns), (1, 10, 1, 3));
        assert_eq!(inner.counts().sql_queries, 1);
    }
}
