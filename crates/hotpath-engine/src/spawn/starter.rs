//! The `hp-start` thread: it creates the profiler's other threads, each when it is
//! due (at once, at an instant, or when a descriptor is readable), so that neither
//! the creations nor the threads themselves cost the program's thread or a short run.
//! On Unix it waits in `poll(2)` on a wake-up pipe and the watched descriptors; elsewhere
//! on a condition variable (descriptors are not watched there: such jobs are due at once).

use std::sync::atomic::{
    AtomicUsize,
    Ordering::{AcqRel, Acquire},
};
#[cfg(not(unix))]
use std::sync::Condvar;
use std::sync::{Mutex, OnceLock};
#[cfg(not(unix))]
use std::thread::Builder;
use std::time::{Duration, Instant};

#[cfg(not(unix))]
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

/// Batches open now ([`hold`]): their jobs wait in the queue, unseen, until the last closes.
static HELD: AtomicUsize = AtomicUsize::new(0);

/// Queues `job` for the starter, created by the first call; without a starter the
/// job runs here and now. While a batch is open, the job only joins the queue.
pub(super) fn queue(when: When, job: Job) {
    #[cfg(not(unix))]
    let when = if matches!(when, When::Readable(_)) { When::Now } else { when };
    if HELD.load(Acquire) > 0 {
        lock(&QUEUE).push(Pending { when, job });
        return;
    }
    if !*STARTER.get_or_init(start) {
        return job();
    }
    lock(&QUEUE).push(Pending { when, job });
    wake();
}

/// Opens a batch: jobs queued until the matching [`release`] are handed over together.
pub(super) fn hold() {
    HELD.fetch_add(1, AcqRel);
}

/// Closes a batch; the last one hands the queue over: it creates the starter, which takes
/// the whole queue on its first look (no wake-up), or wakes it once; without a starter,
/// the queued jobs run here and now.
pub(super) fn release() {
    if HELD.fetch_sub(1, AcqRel) != 1 || lock(&QUEUE).is_empty() {
        return;
    }
    let existed = STARTER.get().is_some();
    if !*STARTER.get_or_init(start) {
        let jobs: Vec<Pending> = lock(&QUEUE).drain(..).collect();
        jobs.into_iter().for_each(|pending| (pending.job)());
    } else if existed {
        wake();
    }
}

/// Creates the wake-up pipe and the starter thread.
fn start() -> bool {
    #[cfg(unix)]
    {
        let Some(fds) = super::pipe(true) else { return false };
        let _ = WAKE.set(fds);
    }
    spawn_starter()
}

/// Stack of the starter: `poll` on a few descriptors, and `std::thread` spawning the jobs'
/// threads. glibc carves the program's static thread-locals out of a thread's stack;
/// `std::thread` asks glibc how much that takes, a bare `pthread_create` does not: 256 KiB
/// leaves room for a program with large ones. Only the pages touched are paid.
const STARTER_STACK: usize = 256 * 1024;

/// Creates the starter with `pthread_create` rather than `std::thread`: std prepares each
/// thread it starts for a stack overflow message (an alternate signal stack: `mmap`,
/// `mprotect`, `sigaltstack`) and reads the thread's attributes, an allocation for which
/// glibc sets up a malloc arena for the thread (a 64 MiB reservation, trimmed, and its
/// first pages). The starter, idle in `poll`, needs neither: a short program pays for a
/// bare thread only. Signals are blocked in it as in every `hp-*` thread.
#[cfg(unix)]
fn spawn_starter() -> bool {
    extern "C" fn body(_: *mut libc::c_void) -> *mut libc::c_void {
        // SAFETY: names the calling thread; the name is a NUL-terminated literal under 16 bytes.
        #[cfg(any(target_os = "linux", target_os = "android"))]
        unsafe {
            libc::prctl(libc::PR_SET_NAME, c"hp-start".as_ptr());
        }
        // SAFETY: names the calling thread (macOS names only the caller); NUL-terminated literal.
        #[cfg(target_vendor = "apple")]
        unsafe {
            libc::pthread_setname_np(c"hp-start".as_ptr());
        }
        // A panic must not unwind out of an `extern "C"` function: the starter just ends.
        let _ = std::panic::catch_unwind(run);
        std::ptr::null_mut()
    }
    super::masked::with_signals_blocked(|| {
        // SAFETY: `attr` is initialised by pthread_attr_init before use and destroyed after;
        // `thread` is a live out-parameter; `body` is an extern "C" function that takes no
        // ownership of its (null) argument. The thread is detached: nobody joins it.
        unsafe {
            let mut attr: libc::pthread_attr_t = std::mem::zeroed();
            if libc::pthread_attr_init(&mut attr) != 0 {
                return false;
            }
            libc::pthread_attr_setstacksize(&mut attr, STARTER_STACK.max(libc::PTHREAD_STACK_MIN));
            libc::pthread_attr_setdetachstate(&mut attr, libc::PTHREAD_CREATE_DETACHED);
            let mut thread: libc::pthread_t = std::mem::zeroed();
            let created = libc::pthread_create(&mut thread, &attr, body, std::ptr::null_mut()) == 0;
            libc::pthread_attr_destroy(&mut attr);
            #[cfg(all(feature = "threads", any(target_os = "linux", target_os = "android")))]
            if created {
                mark_before_it_runs(thread);
            }
            created
        }
    })
}

/// Records the new starter as a profiler thread before it has run (a report written at
/// once must neither read nor show it), from its OS id: the CPU-time clock of a thread
/// encodes it, in the kernel's format `(!tid << 3) | 6` (no system call; the starter never
/// ends, so its id is valid).
#[cfg(all(feature = "threads", any(target_os = "linux", target_os = "android")))]
fn mark_before_it_runs(thread: libc::pthread_t) {
    if let Some(tid) = os_id(thread) {
        crate::memory::mark_profiler_thread(tid);
    }
}

/// The OS id of a running thread, from its CPU-time clock.
#[cfg(all(feature = "threads", any(target_os = "linux", target_os = "android")))]
fn os_id(thread: libc::pthread_t) -> Option<u64> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: the caller passes a thread that has not ended; `clock` is a live out-parameter.
    let ok = unsafe { libc::pthread_getcpuclockid(thread, &mut clock) } == 0;
    (ok && clock & 7 == 6).then(|| u64::from(!(clock >> 3) as u32))
}

#[cfg(all(test, feature = "threads", any(target_os = "linux", target_os = "android")))]
#[test]
fn a_threads_clock_names_its_os_id() {
    // SAFETY: pthread_self has no preconditions.
    assert_eq!(os_id(unsafe { libc::pthread_self() }), Some(crate::os::current_tid()));
}

#[cfg(not(unix))]
fn spawn_starter() -> bool {
    Builder::new().name("hp-start".into()).stack_size(STARTER_STACK).spawn_masked(run).is_ok()
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
