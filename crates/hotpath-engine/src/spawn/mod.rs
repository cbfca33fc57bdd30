//! Starting the profiler's own threads (`hp-*`) so that they never take a signal
//! meant for the program, and only when they are needed. The kernel hands a
//! process-directed signal to any thread that does not block it; a program that
//! blocks SIGTERM in `main` and waits for it with `sigwait` or `signalfd` must find it
//! pending, not delivered to a profiler thread started earlier. So every `hp-*`
//! thread starts with every blockable signal blocked (`masked`), and keeps it.
//!
//! Creating a thread costs 40–200 µs on the project's guests, and a short program
//! needs none of the samplers, the signal watcher or the server's listener: one
//! `hp-start` thread (`starter`) creates them at once ([`soon`]), after a delay
//! ([`after`]: a sampler's first interval) or when a descriptor becomes readable
//! ([`when_readable`]: a connection to the server, a signal in the pipe).
//! - `masked`: spawning with signals blocked.
//! - `starter`: the `hp-start` thread and its queue of thread creations.

mod masked;
mod starter;

use std::io;
use std::thread::Builder;
use std::time::{Duration, Instant};

pub use masked::{with_signals_blocked, SpawnMasked};

/// Creates a profiler thread from `builder` (signals blocked, as [`SpawnMasked`]) to
/// run `body`, from the `hp-start` thread; `failed` runs instead (on the starter) when
/// the thread cannot be created.
///
/// Through this the program's thread creates at most one thread, once per process
/// (the starter), which then waits, idle, for the next jobs: one thread that never
/// ends keeps its OS id, so it is never mistaken for a program thread that reuses it.
/// If the starter cannot be created, jobs run on the caller's thread.
pub fn soon(builder: Builder, body: impl FnOnce() + Send + 'static, failed: impl FnOnce(io::Error) + Send + 'static) {
    starter::queue(starter::When::Now, job(builder, body, failed));
}

/// As [`soon`], but the thread is created `delay` from now: a sampler whose first
/// sample is due after its interval costs a program that ends sooner nothing.
pub fn after(
    delay: Duration,
    builder: Builder,
    body: impl FnOnce() + Send + 'static,
    failed: impl FnOnce(io::Error) + Send + 'static,
) {
    starter::queue(starter::When::At(Instant::now() + delay), job(builder, body, failed));
}

/// As [`soon`], but the thread is created once `fd` is readable (or closed, or in
/// error): a listener's first connection, a signal written to a pipe. `fd` must stay
/// open until then, e.g. owned by `body`. Where descriptors cannot be watched (not
/// Unix), the thread is created at once.
pub fn when_readable(
    fd: i32,
    builder: Builder,
    body: impl FnOnce() + Send + 'static,
    failed: impl FnOnce(io::Error) + Send + 'static,
) {
    starter::queue(starter::When::Readable(fd), job(builder, body, failed));
}

/// Threads queued while this is alive are handed to the starter together when it drops:
/// the starter is created once with all of them, instead of being woken for each (a
/// session's start queues three). Jobs wait meanwhile, so keep it short.
#[must_use = "the batch is handed over when this drops"]
pub struct Batch(());

impl Batch {
    /// Opens a batch (batches nest; the outermost one hands the jobs over).
    pub fn open() -> Self {
        starter::hold();
        Self(())
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        starter::release();
    }
}

/// A pipe whose ends close on exec, and do not block if `nonblocking`: one `pipe2` call
/// where there is one (Linux), else `pipe` and a `fcntl` per end and flag.
#[cfg(unix)]
pub fn pipe(nonblocking: bool) -> Option<[i32; 2]> {
    let mut fds = [0i32; 2];
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let flags = libc::O_CLOEXEC | if nonblocking { libc::O_NONBLOCK } else { 0 };
        // SAFETY: `fds` has room for the two descriptors pipe2(2) returns.
        (unsafe { libc::pipe2(fds.as_mut_ptr(), flags) } == 0).then_some(fds)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        // SAFETY: `fds` has room for the two descriptors pipe(2) returns.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return None;
        }
        for fd in fds {
            // SAFETY: fd was just returned by pipe(2); flags of our own descriptor.
            unsafe {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
                if nonblocking {
                    libc::fcntl(fd, libc::F_SETFL, libc::O_NONBLOCK);
                }
            }
        }
        Some(fds)
    }
}

/// The creation of one thread, as the starter runs it.
fn job(
    builder: Builder,
    body: impl FnOnce() + Send + 'static,
    failed: impl FnOnce(io::Error) + Send + 'static,
) -> starter::Job {
    Box::new(move || {
        if let Err(e) = builder.spawn_masked(body) {
            failed(e);
        }
    })
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
    fn a_delayed_thread_starts_after_its_delay() {
        let (sender, received) = std::sync::mpsc::channel();
        let queued = Instant::now();
        let delay = Duration::from_millis(150);
        after(
            delay,
            Builder::new().name("hp-test-later".into()),
            move || sender.send(queued.elapsed()).unwrap(),
            |e| panic!("could not create the thread: {e}"),
        );
        let started = received.recv_timeout(Duration::from_secs(30)).unwrap();
        assert!(started >= delay, "started {started:?} after being queued, before its delay");
    }

    #[test]
    fn a_watching_thread_starts_once_its_descriptor_is_readable() {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: `fds` has room for the two descriptors pipe(2) returns.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let (sender, received) = std::sync::mpsc::channel();
        let read_fd = fds[0];
        when_readable(
            read_fd,
            Builder::new().name("hp-test-watch".into()),
            move || {
                let mut byte = 0u8;
                // SAFETY: reads one byte into a live local from the test's pipe.
                let n = unsafe { libc::read(read_fd, (&mut byte as *mut u8).cast(), 1) };
                sender.send((n, byte)).unwrap();
            },
            |e| panic!("could not create the thread: {e}"),
        );
        let quiet = received.recv_timeout(Duration::from_millis(300));
        assert!(quiet.is_err(), "the thread started before anything was written: {quiet:?}");
        let byte = 42u8;
        // SAFETY: writes one byte from a live local to the test's pipe.
        assert_eq!(unsafe { libc::write(fds[1], (&byte as *const u8).cast(), 1) }, 1);
        assert_eq!(received.recv_timeout(Duration::from_secs(30)).unwrap(), (1, 42));
        for fd in fds {
            // SAFETY: the test's own descriptors, no longer used.
            unsafe { libc::close(fd) };
        }
    }

    #[test]
    fn pipes_close_on_exec_and_block_as_asked() {
        for nonblocking in [false, true] {
            let fds = pipe(nonblocking).unwrap();
            for fd in fds {
                // SAFETY: queries flags of the test's own descriptors.
                let (fd_flags, status) = unsafe { (libc::fcntl(fd, libc::F_GETFD), libc::fcntl(fd, libc::F_GETFL)) };
                assert_ne!(fd_flags & libc::FD_CLOEXEC, 0);
                assert_eq!(status & libc::O_NONBLOCK != 0, nonblocking);
                // SAFETY: the test's own descriptor, no longer used.
                unsafe { libc::close(fd) };
            }
        }
    }

    #[test]
    fn a_batch_starts_its_threads_when_it_closes() {
        let (sender, received) = std::sync::mpsc::channel();
        let batch = Batch::open();
        for i in 0..2 {
            let sender = sender.clone();
            soon(
                Builder::new().name(format!("hp-test-batch-{i}")),
                move || sender.send(i).unwrap(),
                |e| panic!("could not create the thread: {e}"),
            );
        }
        let early = received.recv_timeout(Duration::from_millis(200));
        assert!(early.is_err(), "a thread started before its batch closed: {early:?}");
        drop(batch);
        let wait = Duration::from_secs(30);
        let mut ran: Vec<_> = (0..2).map(|_| received.recv_timeout(wait).unwrap()).collect();
        ran.sort();
        assert_eq!(ran, [0, 1]);
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
