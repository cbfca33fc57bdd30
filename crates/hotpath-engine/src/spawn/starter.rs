//! The `hp-start` thread: it creates the profiler's other threads, each when it is
//! due (at once, at an instant, or when a descriptor is readable), so that neither
//! the creations nor the threads themselves cost the program's thread or a short run.
//! On Unix it waits in `poll(2)` on a wake-up pipe and the watched descriptors; elsewhere
//! on a condition variable (descriptors are not watched there: such jobs are due at once).

#[cfg(not(unix))]
use std::sync::Condvar;
use std::sync::{Mutex, OnceLock};
use std::thread::Builder;
use std::time::{Duration, Instant};

use super::masked::SpawnMasked;
use crate::sync::lock;

/// The creation of one profiler thread, queued for the starter.
pub(super) type Job = Box<dyn FnOnce() + Send>;

/// When a queued job is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum When {
    /// As soon as the starter gets to it.
    Now,
    /// At this instant or later.
    At(Instant),
    /// Once this descriptor is readable, closed or in error.
    Readable(i32),
}

/// A job and when it is due.
struct Pending {
    when: When,
    job: Job,
}

/// Jobs waiting for the starter thread.
static QUEUE: Mutex<Vec<Pending>> = Mutex::new(Vec::new());
/// Wakes the starter where there is no wake-up pipe (not Unix).
#[cfg(not(unix))]
static QUEUED: Condvar = Condvar::new();
/// The wake-up pipe (read end, write end) on Unix.
#[cfg(unix)]
static WAKE: OnceLock<[i32; 2]> = OnceLock::new();
/// Whether the starter thread could be created (decided once, by the first call).
static STARTER: OnceLock<bool> = OnceLock::new();

/// Queues `job` for the starter, created by the first call; without a starter the
/// job runs here and now.
pub(super) fn queue(when: When, job: Job) {
    if !*STARTER.get_or_init(start) {
        return job();
    }
    #[cfg(not(unix))]
    let when = if matches!(when, When::Readable(_)) { When::Now } else { when };
    lock(&QUEUE).push(Pending { when, job });
    wake();
}

/// Creates the wake-up pipe and the starter thread.
fn start() -> bool {
    #[cfg(unix)]
    {
        let mut fds = [0i32; 2];
        // SAFETY: `fds` has room for the two descriptors pipe(2) returns.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return false;
        }
        for fd in fds {
            // SAFETY: fd was just returned by pipe(2); flags of our own descriptor.
            unsafe {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
                libc::fcntl(fd, libc::F_SETFL, libc::O_NONBLOCK);
            }
        }
        let _ = WAKE.set(fds);
    }
    Builder::new().name("hp-start".into()).stack_size(64 * 1024).spawn_masked(run).is_ok()
}

/// Tells the starter that the queue changed.
fn wake() {
    #[cfg(unix)]
    if let Some(&[_, write]) = WAKE.get() {
        let byte = 1u8;
        // SAFETY: writes one byte from a live local; a full pipe (EAGAIN) already wakes it.
        unsafe { libc::write(write, (&byte as *const u8).cast(), 1) };
    }
    #[cfg(not(unix))]
    QUEUED.notify_one();
}

/// Descriptors the starter watches at once; more wait their turn (none of ours has
/// more than two).
const WATCHED: usize = 15;

/// The starter thread: runs due jobs, forever. Waiting allocates nothing: an idle
/// starter costs no allocator arena.
fn run() {
    crate::memory::profiler_thread();
    loop {
        let now = Instant::now();
        let (due, watched, next) = take_due(now);
        if due.is_empty() {
            wait(&watched, next.map(|at| at.saturating_duration_since(now)));
        }
        due.into_iter().for_each(|job| job());
    }
}

/// Takes the jobs due at `now` out of the queue, in queued order; also returns the
/// descriptors still watched (-1 for none) and the earliest instant another job is due.
fn take_due(now: Instant) -> (Vec<Job>, [i32; WATCHED], Option<Instant>) {
    let mut queue = lock(&QUEUE);
    let (mut due, mut watched, mut next) = (Vec::new(), [-1; WATCHED], None::<Instant>);
    let (mut i, mut n) = (0, 0);
    while i < queue.len() {
        match queue[i].when {
            When::At(at) if at > now => {
                next = Some(next.map_or(at, |n| n.min(at)));
                i += 1;
            }
            When::Readable(fd) => {
                if n < WATCHED {
                    watched[n] = fd;
                    n += 1;
                }
                i += 1;
            }
            When::Now | When::At(_) => due.push(queue.remove(i).job),
        }
    }
    (due, watched, next)
}

/// Waits until the queue changes, one of `watched` is readable, or `timeout` passed;
/// jobs whose descriptor is readable become due.
#[cfg(unix)]
fn wait(watched: &[i32], timeout: Option<Duration>) {
    let Some(&[wake_fd, _]) = WAKE.get() else { return };
    // A negative descriptor is skipped by poll(2).
    let mut fds = [libc::pollfd { fd: -1, events: libc::POLLIN, revents: 0 }; WATCHED + 1];
    fds[0].fd = wake_fd;
    for (pollfd, &fd) in fds[1..].iter_mut().zip(watched) {
        pollfd.fd = fd;
    }
    // Rounded up, so that a job due in 0.3 ms does not make this spin.
    let ms = timeout.map_or(-1, |t| t.as_nanos().div_ceil(1_000_000).min(i32::MAX as u128) as i32);
    // SAFETY: `fds` is a live array of `fds.len()` initialised pollfd structures.
    if unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) } <= 0 {
        return;
    }
    let mut sink = [0u8; 64];
    // SAFETY: reads into a live local buffer from our own non-blocking pipe.
    while unsafe { libc::read(wake_fd, sink.as_mut_ptr().cast(), sink.len()) } > 0 {}
    let ready = |fd: i32| fds[1..].iter().any(|p| p.fd == fd && p.revents != 0);
    if fds[1..].iter().any(|p| p.revents != 0) {
        for pending in lock(&QUEUE).iter_mut() {
            if matches!(pending.when, When::Readable(fd) if ready(fd)) {
                pending.when = When::Now;
            }
        }
    }
}

/// Waits until the queue changes or `timeout` passed (no descriptors here).
#[cfg(not(unix))]
fn wait(_watched: &[i32], timeout: Option<Duration>) {
    let queue = lock(&QUEUE);
    if queue.iter().any(|p| p.when == When::Now) {
        return;
    }
    // A poisoned queue is the same queue: the caller looks at it again either way.
    match timeout {
        Some(t) => drop(QUEUED.wait_timeout(queue, t)),
        None => drop(QUEUED.wait(queue)),
    }
}
