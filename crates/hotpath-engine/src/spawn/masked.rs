//! Spawning with every blockable signal blocked in the new thread.
//!
//! Faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL) stay unblocked: the kernel raises them in
//! the faulting thread only, and blocking them would bypass the program's handlers
//! (Rust's stack-overflow message, crash reporters) if a profiler thread faulted.

use std::io;
use std::thread::{Builder, JoinHandle};

/// Spawns a thread from a [`Builder`] with every blockable signal blocked in it.
pub trait SpawnMasked {
    /// Like [`Builder::spawn`], for the profiler's own threads.
    fn spawn_masked<F, T>(self, f: F) -> io::Result<JoinHandle<T>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static;
}

impl SpawnMasked for Builder {
    fn spawn_masked<F, T>(self, f: F) -> io::Result<JoinHandle<T>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        with_signals_blocked(|| self.spawn(f))
    }
}

/// Runs `f` with every blockable signal blocked in the calling thread, then restores
/// the thread's mask: threads that `f` starts (a Tokio runtime's workers, say) inherit
/// the full mask. A signal arriving meanwhile stays pending or goes to another thread.
pub fn with_signals_blocked<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(unix)]
    {
        let saved = block_all();
        let result = f();
        if let Some(saved) = saved {
            // SAFETY: restores a mask pthread_sigmask filled in; the old-mask pointer may be null.
            unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &saved, std::ptr::null_mut()) };
        }
        result
    }
    #[cfg(not(unix))]
    f()
}

/// Blocks every signal but the faults; returns the previous mask.
#[cfg(unix)]
fn block_all() -> Option<libc::sigset_t> {
    // SAFETY: both sets are initialised by sigfillset/pthread_sigmask before being read;
    // SIGKILL and SIGSTOP cannot be blocked and the kernel ignores them in the set.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        for fault in [libc::SIGSEGV, libc::SIGBUS, libc::SIGFPE, libc::SIGILL] {
            libc::sigdelset(&mut all, fault);
        }
        let mut saved: libc::sigset_t = std::mem::zeroed();
        (libc::pthread_sigmask(libc::SIG_BLOCK, &all, &mut saved) == 0).then_some(saved)
    }
}
