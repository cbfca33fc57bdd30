//! Starting the profiler's own threads (`hp-*`) so that they never take a signal
//! meant for the program. The kernel hands a process-directed signal to any thread
//! that does not block it; a program that blocks SIGTERM in `main` and waits for it
//! with `sigwait` or `signalfd` must find it pending, not delivered to a profiler
//! thread started earlier. So every `hp-*` thread starts with every blockable
//! signal blocked (a new thread inherits its creator's mask), and keeps it.
//!
//! Faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL) stay unblocked: the kernel raises them in
//! the faulting thread only, and blocking them would bypass the program's handlers
//! (Rust's stack-overflow message, crash reporters) if a profiler thread faulted.

use std::collections::VecDeque;
use std::io;
use std::sync::{Condvar, Mutex, OnceLock};
use std::thread::{Builder, JoinHandle};

use crate::sync::lock;

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

/// The creation of one profiler thread, queued for the starter.
type Job = Box<dyn FnOnce() + Send>;

/// Jobs waiting for the starter thread.
static QUEUE: Mutex<VecDeque<Job>> = Mutex::new(VecDeque::new());
static QUEUED: Condvar = Condvar::new();
/// Whether the starter thread could be created (decided once, by the first call).
static STARTER: OnceLock<bool> = OnceLock::new();

/// Creates a profiler thread from `builder` (signals blocked, as [`SpawnMasked`]) to
/// run `body`, from the `hp-start` thread; `failed` runs instead (on the starter) when
/// the thread cannot be created.
///
/// Creating a thread costs 40–200 µs here, most of a session's start-up when the
/// program's thread creates each sampler itself; through this, the program's thread
/// creates at most one thread, once per process, and the starter creates the others
/// beside it. The starter then waits, idle, for the next session's threads: one
/// thread that never ends keeps its OS id, so it is never mistaken for a program
/// thread that reuses it. If it cannot be created, jobs run here.
pub fn soon(builder: Builder, body: impl FnOnce() + Send + 'static, failed: impl FnOnce(io::Error) + Send + 'static) {
    let job: Job = Box::new(move || {
        if let Err(e) = builder.spawn_masked(body) {
            failed(e);
        }
    });
    let running = *STARTER
        .get_or_init(|| Builder::new().name("hp-start".into()).stack_size(64 * 1024).spawn_masked(starter).is_ok());
    if running {
        lock(&QUEUE).push_back(job);
        QUEUED.notify_one();
    } else {
        job();
    }
}

/// The starter thread: runs queued jobs, forever.
fn starter() {
    crate::memory::profiler_thread();
    loop {
        let job = {
            let mut queue = lock(&QUEUE);
            loop {
                match queue.pop_front() {
                    Some(job) => break job,
                    None => queue = QUEUED.wait(queue).unwrap_or_else(|poisoned| poisoned.into_inner()),
                }
            }
        };
        job();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn blocked(signal: libc::c_int) -> bool {
        // SAFETY: queries the calling thread's mask into a zeroed local.
        unsafe {
            let mut mask: libc::sigset_t = std::mem::zeroed();
            libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut mask);
            libc::sigismember(&mask, signal) == 1
        }
    }

    #[test]
    fn the_thread_blocks_signals_and_the_caller_keeps_its_mask() {
        let before = blocked(libc::SIGTERM);
        let inside = Builder::new()
            .name("hp-test".into())
            .spawn_masked(|| [libc::SIGTERM, libc::SIGINT, libc::SIGPROF, libc::SIGSEGV].map(blocked))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(inside, [true, true, true, false]);
        assert_eq!(blocked(libc::SIGTERM), before);
    }

    #[test]
    fn queued_threads_start_named_with_signals_blocked() {
        let (sender, received) = std::sync::mpsc::channel();
        for i in 0..3 {
            let sender = sender.clone();
            let builder = Builder::new().name(format!("hp-test-{i}"));
            soon(
                builder,
                move || {
                    let name = std::thread::current().name().map(String::from);
                    sender.send((i, name, blocked(libc::SIGTERM))).unwrap();
                },
                |e| panic!("could not create the thread: {e}"),
            );
        }
        let wait = std::time::Duration::from_secs(30);
        let mut ran: Vec<_> = (0..3).map(|_| received.recv_timeout(wait).unwrap()).collect();
        ran.sort();
        assert_eq!(ran, [0, 1, 2].map(|i| (i, Some(format!("hp-test-{i}")), true)));
    }

    #[test]
    fn a_thread_that_cannot_be_created_runs_the_fallback() {
        let (sender, received) = std::sync::mpsc::channel();
        // A stack larger than the address space: thread creation fails.
        let builder = Builder::new().name("hp-test-huge".into()).stack_size(usize::MAX / 2);
        soon(builder, || unreachable!("the thread was not created"), move |e| sender.send(e.to_string()).unwrap());
        let error = received.recv_timeout(std::time::Duration::from_secs(30));
        assert!(error.is_ok_and(|e| !e.is_empty()), "the fallback ran with the creation error");
    }
}
