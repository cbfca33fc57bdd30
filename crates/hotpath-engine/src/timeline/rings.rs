//! Every thread's ring: attached on a thread's first event, retired when it exits, and
//! reused by a later thread once enough retired rings have piled up. Memory is at most
//! (live threads + [`KEEP_RETIRED`]) × ring size, however many threads come and go.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use super::event::Event;
use super::ring::Ring;
use crate::memory;

/// Exited threads whose rings are kept for the next dump before new threads reuse them.
pub const KEEP_RETIRED: usize = 16;
/// Events per thread's ring unless configured.
pub const DEFAULT_EVENTS: usize = 32 * 1024;

static CAPACITY: AtomicUsize = AtomicUsize::new(DEFAULT_EVENTS);
static RINGS: Mutex<Vec<Arc<Ring>>> = Mutex::new(Vec::new());

/// The value of `RING` once the thread's exit hook ran: record nothing more.
const EXITED: usize = 1;

thread_local! {
    // Const-initialized and without a destructor: reading it is one TLS load.
    static RING: Cell<*const Ring> = const { Cell::new(std::ptr::null()) };
    // Its destructor retires the ring when the thread exits.
    static OWNER: Owner = const { Owner };
}

struct Owner;

impl Drop for Owner {
    fn drop(&mut self) {
        let p = RING.with(|r| r.replace(EXITED as *const Ring));
        if p as usize > EXITED {
            // SAFETY: a pointer above EXITED came from an `Arc` the registry keeps for as
            // long as the ring is alive (retired rings are only reused, never freed).
            unsafe { &*p }.alive.store(false, Relaxed);
        }
    }
}

/// Sets the ring size for threads that attach from now on.
pub(crate) fn set_capacity(events: usize) {
    CAPACITY.store(events.clamp(2, 1 << 26), Relaxed);
}

/// Events per ring for threads that attach from now on.
pub(crate) fn capacity() -> usize {
    CAPACITY.load(Relaxed)
}

/// Appends an event to this thread's ring, attaching one on the thread's first event.
#[inline(always)]
pub(crate) fn push(what: u64, start: u64, len: u64, extra: u64) {
    let p = RING.with(Cell::get);
    if p as usize <= EXITED {
        return attach_and_push(p, what, start, len, extra);
    }
    // SAFETY: as in `Owner::drop`; only this thread writes its ring.
    unsafe { &*p }.push(what, start, len, extra);
}

#[cold]
#[inline(never)]
fn attach_and_push(p: *const Ring, what: u64, start: u64, len: u64, extra: u64) {
    if let Some(ring) = attached(p) {
        // SAFETY: as in `Owner::drop`.
        unsafe { &*ring }.push(what, start, len, extra);
    }
}

/// This thread's ring (`p` is `RING`'s value), attached now if it has none; `None`
/// once the thread's exit hook ran.
fn attached(p: *const Ring) -> Option<*const Ring> {
    if p as usize > EXITED {
        return Some(p);
    }
    if p as usize == EXITED || OWNER.try_with(|_| ()).is_err() {
        return None;
    }
    let ring = memory::untracked(attach);
    RING.with(|r| r.set(ring));
    Some(ring)
}

/// A counted reference to this thread's ring (attached now if it has none), for a
/// writer that keeps it at hand: while it is held the ring is never given to another
/// thread. `None` once the thread's exit hook ran.
pub(crate) fn this_thread() -> Option<Arc<Ring>> {
    let ring = attached(RING.with(Cell::get))?;
    // SAFETY: `ring` came from `Arc::as_ptr` of an `Arc` the registry keeps (rings are
    // only reused, never freed), so the count can be raised and a new `Arc` made.
    Some(unsafe {
        Arc::increment_strong_count(ring);
        Arc::from_raw(ring)
    })
}

/// Registers a ring for this thread (see [`ring_of`]).
fn attach() -> *const Ring {
    let ring = ring_of(thread_id(), || std::thread::current().name().unwrap_or("").to_owned());
    Arc::as_ptr(&ring)
}

/// The ring of thread `tid`, for a writer that keeps it at hand (the function
/// recorder, from any thread): the thread's if it has one, else registered now.
pub(crate) fn ring_of_thread(tid: u64) -> Arc<Ring> {
    memory::untracked(|| ring_of(tid, || thread_name(tid)))
}

/// The live ring of `tid`, else a retired one nobody reads when enough are kept, else
/// a new one.
fn ring_of(tid: u64, name: impl FnOnce() -> String) -> Arc<Ring> {
    let capacity = capacity();
    let mut rings = RINGS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(ring) = rings.iter().find(|r| r.alive.load(Relaxed) && r.tid == tid) {
        return Arc::clone(ring);
    }
    let name = name();
    let retired = rings.iter().filter(|r| !r.alive.load(Relaxed)).count();
    if retired > KEEP_RETIRED {
        let reusable = rings.iter_mut().find_map(|r| {
            let fits = !r.alive.load(Relaxed) && r.capacity() == capacity.max(2).next_power_of_two();
            if fits {
                Arc::get_mut(r)
            } else {
                None
            }
        });
        if let Some(ring) = reusable {
            ring.adopt(tid, name);
            // The reused ring moves to the end: the oldest retired rings go first.
            let ring = ring as *const Ring;
            let at = rings.iter().position(|r| Arc::as_ptr(r) == ring).unwrap_or(0);
            let ring = rings.remove(at);
            rings.push(Arc::clone(&ring));
            return ring;
        }
    }
    let ring = Arc::new(Ring::new(capacity, tid, name));
    memory::allocated(ring.bytes());
    rings.push(Arc::clone(&ring));
    ring
}

/// A thread's name as the system knows it ("" where it cannot be read); the main
/// thread is "main", as Rust names it.
fn thread_name(tid: u64) -> String {
    #[cfg(target_os = "linux")]
    if tid == std::process::id() as u64 {
        return "main".to_owned();
    }
    #[cfg(target_os = "linux")]
    return std::fs::read_to_string(format!("/proc/self/task/{tid}/comm"))
        .map(|n| n.trim_end().to_owned())
        .unwrap_or_default();
    #[cfg(not(target_os = "linux"))]
    {
        let _ = tid;
        String::new()
    }
}

/// This thread's id, as rings record it.
pub(crate) fn thread_id() -> u64 {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no preconditions.
    return unsafe { libc::gettid() } as u64;
    #[cfg(not(target_os = "linux"))]
    {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        thread_local! {
            static ID: u64 = NEXT.fetch_add(1, Relaxed);
        }
        ID.try_with(|id| *id).unwrap_or_else(|_| NEXT.fetch_add(1, Relaxed))
    }
}

/// One thread's events read from its ring.
pub struct ThreadEvents {
    /// The OS thread id.
    pub tid: u64,
    /// The thread's name ("" when unnamed).
    pub name: String,
    /// Whether the thread still runs.
    pub alive: bool,
    /// Its events, oldest first.
    pub events: Vec<Event>,
}

/// Copies every ring's events (the rings keep being written meanwhile); returns them and
/// the count of torn events left out. Holds the registry's lock only to list the rings.
pub(crate) fn read_all() -> (Vec<ThreadEvents>, u64) {
    let rings: Vec<Arc<Ring>> = RINGS.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let mut torn = 0;
    let mut words = Vec::new();
    let threads = rings
        .iter()
        .map(|ring| {
            let mut events = Vec::new();
            torn += ring.read(&mut events, &mut words);
            ThreadEvents { tid: ring.tid, name: ring.name.clone(), alive: ring.alive.load(Relaxed), events }
        })
        .collect();
    (threads, torn)
}

/// Rings and the bytes they hold.
pub(crate) fn footprint() -> (usize, usize) {
    let rings = RINGS.lock().unwrap_or_else(|e| e.into_inner());
    (rings.len(), rings.iter().map(|r| r.bytes()).sum())
}

/// Events written over all rings' lives, and the rings' capacity in events.
pub(crate) fn written() -> (u64, u64) {
    let rings = RINGS.lock().unwrap_or_else(|e| e.into_inner());
    rings.iter().fold((0, 0), |(w, c), r| (w + r.written(), c + r.capacity() as u64))
}
