//! Per-thread recording and the registry of live and exited threads.
//!
//! Each thread that makes a measured call gets a [`ThreadRecorder`] on first use
//! (a cold path that takes the registry lock once). Recording writes only that
//! recorder. When the thread exits, a thread-local destructor folds its numbers
//! into the registry's retired totals and frees it, so memory is bounded by
//! sites × live threads.

mod recorder;
mod registry;

pub(crate) use recorder::ThreadRecorder;
pub(crate) use registry::{collect, current, live_threads};
