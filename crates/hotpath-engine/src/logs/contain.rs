//! Keeping a panicking `Debug` impl away from the program's panic hook.
//!
//! std's hook is process-global, so swapping it around each format would race with
//! other threads (a panic elsewhere could find our silent hook, or the program's hook
//! could be lost). Instead one wrapper hook is installed, once, when a session starts:
//! it chains to the hook that was there and stays silent only for a panic raised on a
//! thread that is formatting a value for us (a per-thread depth, set around the
//! `catch_unwind` in `text::write_capped`). A panic anywhere else, or on the same
//! thread outside our formatting, reaches the program's hook unchanged.
//!
//! A program that sets its own hook after the session started replaces the wrapper:
//! its hook then sees the panics of `Debug` impls too (they are still caught and logged
//! as `<Debug panicked>`). Setting the hook before the session (before `#[hotpath::main]`
//! or the guard) keeps them silent.

use std::cell::Cell;
use std::panic;
use std::sync::Once;

thread_local! {
    /// How many of our formats are under way on this thread (a `Debug` impl may call a
    /// tracker, which formats again).
    static FORMATTING: Cell<u32> = const { Cell::new(0) };
}

static INSTALL: Once = Once::new();

/// Installs the wrapper hook once per process (a later session finds it in place).
/// Not from a panicking thread: std refuses to change the hook there.
pub(crate) fn install_hook() {
    if std::thread::panicking() {
        return;
    }
    INSTALL.call_once(|| panic::set_hook(wrap(panic::take_hook())));
}

type Hook = Box<dyn Fn(&panic::PanicHookInfo<'_>) + Sync + Send + 'static>;

/// `previous`, silent for the panics of our formatting.
fn wrap(previous: Hook) -> Hook {
    Box::new(move |info| {
        if !formatting() {
            if crate::timeline::on() {
                crate::timeline::trigger::panicked(info);
            }
            previous(info);
        }
    })
}

/// Whether this thread is formatting a value for a log.
fn formatting() -> bool {
    FORMATTING.try_with(|depth| depth.get() > 0).unwrap_or(false)
}

/// Runs `f` (a user `Debug` impl under `catch_unwind`) marked as our formatting.
pub(crate) fn formatting_user_debug<R>(f: impl FnOnce() -> R) -> R {
    let _mark = Mark::enter();
    f()
}

/// The depth mark, undone on every exit.
struct Mark;

impl Mark {
    fn enter() -> Self {
        let _ = FORMATTING.try_with(|depth| depth.set(depth.get() + 1));
        Self
    }
}

impl Drop for Mark {
    fn drop(&mut self) {
        let _ = FORMATTING.try_with(|depth| depth.set(depth.get().saturating_sub(1)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    #[test]
    fn the_mark_nests_and_is_undone() {
        assert!(!formatting());
        formatting_user_debug(|| {
            assert!(formatting());
            formatting_user_debug(|| assert!(formatting()));
            assert!(formatting(), "the inner mark leaves the outer one");
        });
        assert!(!formatting());
        let caught = std::panic::catch_unwind(|| formatting_user_debug(|| panic!("inside")));
        assert!(caught.is_err() && !formatting(), "undone by unwinding too");
    }

    static SEEN: AtomicUsize = AtomicUsize::new(0);

    #[test]
    fn the_wrapper_passes_other_panics_to_the_previous_hook() {
        // The hook is the process's: the test harness's stays behind the counting one
        // (another test's failure still prints), and comes back at the end.
        let harness: std::sync::Arc<Hook> = std::sync::Arc::new(panic::take_hook());
        let chained = std::sync::Arc::clone(&harness);
        panic::set_hook(wrap(Box::new(move |info| {
            let ours = info.payload().downcast_ref::<&str>().is_some_and(|m| m.starts_with("the program's"));
            if ours {
                SEEN.fetch_add(1, Relaxed);
            } else {
                chained(info);
            }
        })));
        let before = SEEN.load(Relaxed);
        let _ = std::panic::catch_unwind(|| formatting_user_debug(|| panic!("the program's, while ours formats")));
        assert_eq!(SEEN.load(Relaxed), before, "silent while formatting");
        let _ = std::panic::catch_unwind(|| panic!("the program's"));
        assert_eq!(SEEN.load(Relaxed), before + 1, "chained otherwise");
        let _ = panic::take_hook();
        panic::set_hook(Box::new(move |info| harness(info)));
    }
}
