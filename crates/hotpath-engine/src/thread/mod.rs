//! Per-thread recording and the registry of live and exited threads.
//!
//! Each thread that makes a measured call gets a [`ThreadRecorder`] on first use.
//! Recording writes only that recorder; when the thread exits its numbers fold into
//! the registry's retired totals (see `registry`). `cells` and `registry` are the
//! mechanism, shared with `io!`'s recorders.

mod cells;
mod recorder;
mod registry;

use std::cell::Cell;
use std::ptr;

pub(crate) use cells::Cells;
pub(crate) use recorder::ThreadRecorder;
pub(crate) use registry::{Current, ExitHook, Recorder, Registry, Totals};

use crate::functions::SiteTotals;

static REGISTRY: Registry<ThreadRecorder, SiteTotals> = Registry::new();

thread_local! {
    // Const-initialized and without a destructor: reading it is one TLS load.
    static CURRENT: Current<ThreadRecorder> = const { Cell::new(ptr::null()) };
    // Its destructor retires the recorder when the thread exits.
    static EXIT: ExitHook<ThreadRecorder, SiteTotals> = const { ExitHook::new(&CURRENT, &REGISTRY) };
}

/// This thread's recorder, attached on first use; null while the thread is exiting.
///
/// The pointer stays valid on this thread until its thread-local destructors run.
#[inline(always)]
pub(crate) fn current() -> *const ThreadRecorder {
    REGISTRY.current(&CURRENT, &EXIT, ThreadRecorder::new)
}

/// Every site's totals over live and exited threads, indexed by site id.
pub(crate) fn collect() -> Vec<SiteTotals> {
    REGISTRY.collect()
}

/// Threads with a live recorder.
pub(crate) fn live_threads() -> usize {
    REGISTRY.live_threads()
}
