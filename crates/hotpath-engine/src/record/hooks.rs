//! What a measured frame does besides timing: the one place where the function
//! guard (`functions::guard`) and the async frame (`functions::future`) call out to
//! the instruments that attach to measured calls. Each attachment's per-thread state
//! lives in this module's siblings, below every instrument, so the frame never names
//! an instrument and an instrument never names another:
//!
//! - CPU sampling (`hotpath-cpu`): the frame pushes its site id on `stack`
//!   at entry and pops it at exit; the sampler's signal handler reads that stack.
//! - HTTP and SQL client calls without `hotpath-cpu`: the same push and pop on
//!   `source`, whose top names the calling function.
//! - Allocations (`hotpath-alloc`): no call at all; the frame's [`Usage`](super::Usage)
//!   reads the thread's cumulative counters (`crate::alloc_counters`)
//!   at entry and exit, like the clock.
//! - Instructions (`hotpath-callgrind`) attach in the macros, not here: the measured
//!   body runs inside a marker function that Callgrind's call graph names.
//!
//! Without those features both hooks are empty and compile to nothing.

/// The frame of site `id` begins on this thread (a call starts or a poll begins).
#[inline(always)]
pub(crate) fn enter(id: u32) {
    #[cfg(all(feature = "cpu", target_os = "linux"))]
    super::stack::push(id);
    #[cfg(all(
        any(feature = "services-http", feature = "services-sql"),
        not(all(feature = "cpu", target_os = "linux"))
    ))]
    super::source::push(id);
    let _ = id;
}

/// The innermost frame of this thread ends (its call returns or its poll ends).
#[inline(always)]
pub(crate) fn exit() {
    #[cfg(all(feature = "cpu", target_os = "linux"))]
    super::stack::pop();
    #[cfg(all(
        any(feature = "services-http", feature = "services-sql"),
        not(all(feature = "cpu", target_os = "linux"))
    ))]
    super::source::pop();
}

/// The innermost measured site on this thread: what an HTTP or SQL call reports as
/// its source.
#[cfg(any(feature = "services-http", feature = "services-sql"))]
#[inline(always)]
pub(crate) fn innermost() -> Option<u32> {
    #[cfg(all(feature = "cpu", target_os = "linux"))]
    return super::stack::top();
    #[cfg(not(all(feature = "cpu", target_os = "linux")))]
    super::source::top()
}
