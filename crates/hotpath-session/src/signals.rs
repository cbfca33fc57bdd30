//! Reports on Ctrl-C, SIGTERM and `process::exit` without fighting the program.
//!
//! The handler is installed only for signals still at their default disposition,
//! and only writes the signal number to a pipe (async-signal-safe). A `hp-signal`
//! thread, created when the first byte arrives (`spawn::when_readable`), reads it; if our handler is still the installed one, it gives both signals
//! their default action back (so a second one ends the process at once, even while
//! the report waits on an output nobody reads), writes the report and re-raises, so
//! the exit status is the conventional one. If the program has installed its own
//! handler since, the program decides what happens and the report comes when main
//! returns. The profiler's threads block every signal (`hotpath_engine::spawn`), so
//! a program that blocks SIGTERM to `sigwait` or `signalfd` for it gets it untouched.
//!
//! A forked child is not profiled: [`forget_in_child`] gives it the default actions
//! back and cuts it off the parent's pipe, and until it has run, the handler itself
//! sees that it is not in the profiled process and acts as the default would.

use std::sync::atomic::{AtomicI32, Ordering};

use libc::c_int;

use hotpath_engine::diag::warn;

use crate::end::End;

static WRITE_FD: AtomicI32 = AtomicI32::new(-1);
static READ_FD: AtomicI32 = AtomicI32::new(-1);
/// The profiled process; a forked child has another pid.
static OWNER: AtomicI32 = AtomicI32::new(0);
/// What reports: set once by [`install`].
static FINISH: std::sync::OnceLock<fn(End)> = std::sync::OnceLock::new();

fn finish_from(end: End) {
    if let Some(finish) = FINISH.get() {
        finish(end);
    }
}
const SIGNALS: [c_int; 2] = [libc::SIGINT, libc::SIGTERM];

fn ours() -> libc::sighandler_t {
    on_signal as extern "C" fn(c_int) as libc::sighandler_t
}

extern "C" fn on_signal(signal: c_int) {
    // SAFETY: getpid(2) is async-signal-safe.
    if unsafe { libc::getpid() } != OWNER.load(Ordering::Relaxed) {
        // A child forked a moment ago, before its fork handler ran: what the default would do.
        set_handler(signal, libc::SIG_DFL);
        // SAFETY: raise(3) is async-signal-safe; the signal is delivered once this handler returns.
        unsafe { libc::raise(signal) };
        return;
    }
    let fd = WRITE_FD.load(Ordering::Relaxed);
    if fd >= 0 {
        let byte = signal as u8;
        let errno = std::io::Error::last_os_error().raw_os_error();
        // SAFETY: write(2) is async-signal-safe; the buffer is a live local.
        unsafe { libc::write(fd, (&byte as *const u8).cast(), 1) };
        if let Some(errno) = errno {
            set_errno(errno);
        }
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn set_errno(value: c_int) {
    // SAFETY: __errno_location returns this thread's errno slot.
    unsafe { *libc::__errno_location() = value };
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn set_errno(value: c_int) {
    // SAFETY: __error returns this thread's errno slot.
    unsafe { *libc::__error() = value };
}

extern "C" fn at_exit() {
    let _ = std::panic::catch_unwind(|| finish_from(End::ProcessExit));
}

fn handler_of(signal: c_int) -> Option<libc::sighandler_t> {
    // SAFETY: a null new action only queries the current one into `old`.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        (libc::sigaction(signal, std::ptr::null(), &mut old) == 0).then_some(old.sa_sigaction)
    }
}

/// Async-signal-safe (sigaction and sigemptyset only).
fn set_handler(signal: c_int, handler: libc::sighandler_t) {
    // SAFETY: a zeroed sigaction with an empty mask and a valid handler is well formed.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(signal, &action, std::ptr::null_mut());
    }
}

/// The default action back wherever our handler is still the installed one.
fn restore_defaults() {
    for signal in SIGNALS {
        if handler_of(signal) == Some(ours()) {
            set_handler(signal, libc::SIG_DFL);
        }
    }
}

/// Installs the exit hook and, where the program has none, the signal handlers;
/// `finish` writes the report.
pub(crate) fn install(finish: fn(End)) {
    let _ = FINISH.set(finish);
    // SAFETY: getpid has no preconditions.
    OWNER.store(unsafe { libc::getpid() }, Ordering::Relaxed);
    // SAFETY: registering a plain extern "C" function.
    unsafe { libc::atexit(at_exit) };
    let free: Vec<c_int> = SIGNALS.into_iter().filter(|s| handler_of(*s) == Some(libc::SIG_DFL)).collect();
    if free.is_empty() {
        return;
    }
    let Some(fds) = hotpath_engine::spawn::pipe(false) else {
        warn("could not create the signal pipe; no report on Ctrl-C");
        return;
    };
    READ_FD.store(fds[0], Ordering::Relaxed);
    WRITE_FD.store(fds[1], Ordering::Relaxed);
    for signal in free {
        set_handler(signal, ours());
    }
    // The watcher is created by the starter when the first signal is in the pipe: a
    // program that gets none never has the thread. Without a watcher nothing would read
    // the pipe: the defaults come back.
    let read_fd = fds[0];
    hotpath_engine::spawn::when_readable(
        read_fd,
        std::thread::Builder::new().name("hp-signal".into()).stack_size(64 * 1024),
        move || watch(read_fd),
        |_| {
            restore_defaults();
            warn("could not start the signal thread; no report on Ctrl-C");
        },
    );
}

/// In a child just forked (from a `pthread_atfork` handler, so async-signal-safe
/// calls only): default actions where ours is installed, and the pipe to the
/// parent's signal thread closed, so the child's signals are its own.
pub(crate) fn forget_in_child() {
    restore_defaults();
    for fd in [WRITE_FD.swap(-1, Ordering::Relaxed), READ_FD.swap(-1, Ordering::Relaxed)] {
        if fd >= 0 {
            // SAFETY: the child's copy of a descriptor only this module uses.
            unsafe { libc::close(fd) };
        }
    }
}

fn watch(read_fd: c_int) {
    hotpath_engine::memory::profiler_thread();
    loop {
        let mut byte = 0u8;
        // SAFETY: reads one byte into a live local.
        let n = unsafe { libc::read(read_fd, (&mut byte as *mut u8).cast(), 1) };
        if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        if n != 1 {
            return;
        }
        let signal = c_int::from(byte);
        if handler_of(signal) != Some(ours()) {
            continue;
        }
        // From here on a second Ctrl-C or SIGTERM ends the process at once.
        restore_defaults();
        finish_from(End::Signal);
        // Raised at this thread, which unblocks it for that: the default action ends the
        // process with the conventional status, even if every other thread blocks it now.
        // SAFETY: a zeroed set filled by sigemptyset/sigaddset; raise(3) targets the calling thread.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, signal);
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::raise(signal);
        }
        return;
    }
}
