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

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::Duration;

use hotpath_engine::diag::warn;
use hotpath_engine::spawn::SpawnMasked;

use crate::end::End;

/// How long the report waits for a hook run while the process is exiting already.
const EXITING_WAIT: Duration = Duration::from_secs(5);

/// Runs `hook` for a session ending by `end`. A panic in it is the program's own bug
/// and must not cost the report.
pub(crate) fn run(hook: Box<dyn FnOnce() + Send>, end: End) {
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
