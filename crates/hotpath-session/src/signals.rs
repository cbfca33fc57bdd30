//! Reports on Ctrl-C, SIGTERM and `process::exit` without fighting the program.
//!
//! The handler is installed only for signals still at their default disposition,
//! and only writes the signal number to a pipe (async-signal-safe). A `hp-signal`
//! thread reads it; if our handler is still the installed one, it writes the report,
//! restores the default disposition and re-raises, so the exit status is the
//! conventional one. If the program has installed its own handler since, the
//! program decides what happens and the report comes when main returns.

use std::sync::atomic::{AtomicI32, Ordering};

use libc::c_int;

use hotpath_engine::diag::warn;

use crate::end::End;

static WRITE_FD: AtomicI32 = AtomicI32::new(-1);
/// What reports: set once by [`install`].
static FINISH: std::sync::OnceLock<fn(End)> = std::sync::OnceLock::new();

fn finish_from(end: End) {
    if let Some(finish) = FINISH.get() {
        finish(end);
    }
}
const SIGNALS: [c_int; 2] = [libc::SIGINT, libc::SIGTERM];

extern "C" fn on_signal(signal: c_int) {
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

/// Installs the exit hook and, where the program has none, the signal handlers;
/// `finish` writes the report.
pub(crate) fn install(finish: fn(End)) {
    let _ = FINISH.set(finish);
    // SAFETY: registering a plain extern "C" function.
    unsafe { libc::atexit(at_exit) };
    let free: Vec<c_int> = SIGNALS.into_iter().filter(|s| handler_of(*s) == Some(libc::SIG_DFL)).collect();
    if free.is_empty() {
        return;
    }
    let mut fds = [0 as c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) returns.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        warn("could not create the signal pipe; no report on Ctrl-C");
        return;
    }
    for fd in fds {
        // SAFETY: fd was just returned by pipe(2).
        unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    let read_fd = fds[0];
    let spawned =
        std::thread::Builder::new().name("hp-signal".into()).stack_size(64 * 1024).spawn(move || watch(read_fd));
    if spawned.is_err() {
        warn("could not start the signal thread; no report on Ctrl-C");
        return;
    }
    WRITE_FD.store(fds[1], Ordering::Relaxed);
    for signal in free {
        set_handler(signal, on_signal as extern "C" fn(c_int) as libc::sighandler_t);
    }
}

fn watch(read_fd: c_int) {
    hotpath_engine::memory::profiler_thread();
    let ours = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
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
        if handler_of(signal) != Some(ours) {
            continue;
        }
        finish_from(End::Signal);
        set_handler(signal, libc::SIG_DFL);
        // SAFETY: sends the signal to this process, now with its default action.
        unsafe { libc::kill(libc::getpid(), signal) };
        return;
    }
}
