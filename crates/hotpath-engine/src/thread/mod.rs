//! The per-thread recording mechanism every recorder is built from: a table of cells
//! by id (`cells`) and the registry of live and exited threads (`registry`).
//!
//! Function sites (`functions::recorder`), instrument metrics (`functions::metric`) and
//! `io!` entries (`io::recorder`) each own a registry and its thread-locals, so each has
//! an id space of its own. Recording writes only the calling thread's recorder; when the
//! thread exits its numbers fold into the registry's retired totals. Nothing here knows
//! what a cell holds.

mod cells;
mod registry;

use std::thread::LocalKey;

pub(crate) use cells::Cells;
pub(crate) use registry::{Current, ExitHook, Recorder, Registry, Reset, Totals};

/// Lends this thread's recorder of `registry` (attached on first use) to `f`; `None`
/// while the thread is exiting.
#[inline(always)]
pub(crate) fn with_recorder<R: Recorder, T: Totals<R::Cell>, O>(
    registry: &'static Registry<R, T>,
    current: &'static LocalKey<Current<R>>,
    exit: &'static LocalKey<ExitHook<R, T>>,
    new: fn() -> R,
    f: impl FnOnce(&R) -> O,
) -> Option<O> {
    let recorder = registry.current(current, exit, new);
    // SAFETY: `current` returns null or this thread's attached recorder, which only the
    // destructor of `exit` frees, on this thread, at its exit: it cannot run while `f`
    // does, and the borrow cannot outlive `f`.
    unsafe { recorder.as_ref() }.map(f)
}
