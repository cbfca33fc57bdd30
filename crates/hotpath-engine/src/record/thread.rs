//! Lending a thread its recorder of a [`Registry`].

use std::thread::LocalKey;

use super::registry::{Current, ExitHook, Recorder, Registry, Totals};

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
