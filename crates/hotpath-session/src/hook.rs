//! The `before_shutdown` hook: run once, before the report, outside every lock of
//! ours, so that it may end the process itself. A `process::exit` in it runs the exit
//! hook, which writes the report (once: the hook is gone by then) and the process ends
//! with the hook's status.
//!
//! When the program is exiting already (`process::exit` in `main`, or `main` returning
//! with no guard), the hook cannot run on the exiting thread: Rust aborts a second
//! `process::exit` there ("called re-entrantly"). It runs on a thread of its own, where
//! a `process::exit` waits for the exit under way (Rust lets one thread exit), and the
//! report waits for the hook up to [`EXITING_WAIT`]; the status is the program's.
//!
//! Another end that comes while the hook runs on another thread (a signal during the
//! guard's hook) waits for it as long, so the report still follows the hook.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Condvar, Mutex};
use std::thread::ThreadId;
use std::time::Duration;

use hotpath_engine::diag::warn;
use hotpath_engine::spawn::SpawnMasked;

use crate::config::BeforeShutdown;
use crate::end::End;

/// How long the report waits for a hook run while the process is exiting already.
const EXITING_WAIT: Duration = Duration::from_secs(5);

/// The thread running a hook now, if any; notified by [`RETURNED`] when it returns.
static RUNNING: Mutex<Option<ThreadId>> = Mutex::new(None);
static RETURNED: Condvar = Condvar::new();

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Before the report of a session ending by `end`: runs its hook if no end has taken
/// it yet, else waits for it to return if it runs on another thread (on this one it
/// called `process::exit`, which brought us here).
pub(crate) fn before_report(hook: Option<&BeforeShutdown>, end: End) {
    let me = std::thread::current().id();
    let mut running = lock(&RUNNING);
    // Taken under `RUNNING`: an end that finds it gone also finds who runs it.
    match hook.and_then(|hook| lock(hook).take()) {
        Some(hook) => {
            *running = Some(me);
            drop(running);
            run(hook, end);
            *lock(&RUNNING) = None;
            RETURNED.notify_all();
        }
        None => {
            drop(RETURNED.wait_timeout_while(running, EXITING_WAIT, |r| r.is_some_and(|id| id != me)));
        }
    }
}

/// Runs `hook` for a session ending by `end`. A panic in it is the program's own bug
/// and must not cost the report.
fn run(hook: Box<dyn FnOnce() + Send>, end: End) {
    if end != End::ProcessExit {
        let _ = catch_unwind(AssertUnwindSafe(hook));
        return;
    }
    let (done, returned) = mpsc::channel();
    // Not an `hp-` name: the hook is the program's code, its measured calls count.
    let spawned = std::thread::Builder::new().name("before_shutdown".into()).spawn_masked(move || {
        let _ = catch_unwind(AssertUnwindSafe(hook));
        let _ = done.send(());
    });
    match spawned {
        Ok(_) => {
            if returned.recv_timeout(EXITING_WAIT).is_err() {
                warn(&format!(
                    "the before_shutdown hook did not return within {} s of the program's exit (a \
                     process::exit in it cannot change the exit status then); the report is written now",
                    EXITING_WAIT.as_secs()
                ));
            }
        }
        Err(e) => warn(&format!("could not start a thread for the before_shutdown hook ({e}); it did not run")),
    }
}
