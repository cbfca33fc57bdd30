//! `HOTPATH_SHUTDOWN_MS` and `build_with_shutdown`: the report of a program that runs
//! on, written after a fixed time, then the process exits with status 0. And the
//! fork flag: a forked child never writes its parent's report.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use hotpath_engine::diag;
use hotpath_engine::spawn::SpawnMasked;

use crate::end::End;

static IN_FORKED_CHILD: AtomicBool = AtomicBool::new(false);

/// Reports session `id` with `finish` and exits after `delay`; zero means no timer
/// (the report comes when the program ends).
pub(crate) fn after(id: u64, delay: Duration, finish: fn(u64, End)) {
    if delay.is_zero() {
        return;
    }
    let spawned =
        std::thread::Builder::new().name("hp-shutdown".into()).stack_size(64 * 1024).spawn_masked(move || {
            hotpath_engine::memory::profiler_thread();
            std::thread::sleep(delay);
            finish(id, End::Timeout);
            std::process::exit(0);
        });
    if spawned.is_err() {
        diag::warn("could not start the shutdown timer thread; the report comes when the program ends");
    }
}

/// Called in a freshly forked child (async-signal-safe: one store).
#[cfg(unix)]
pub(crate) fn forget_in_child() {
    IN_FORKED_CHILD.store(true, Relaxed);
}

/// True in a child forked while a session ran.
pub(crate) fn in_forked_child() -> bool {
    IN_FORKED_CHILD.load(Relaxed)
}
