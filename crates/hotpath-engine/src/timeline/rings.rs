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
    if p as usize == EXITED || OWNER.try_with(|_| ()).is_err() {
        return;
    }
    let ring = memory::untracked(attach);
    RING.with(|r| r.set(ring));
    // SAFETY: as in `Owner::drop`.
    unsafe { &*ring }.push(what, start, len, extra);
}

/// Registers a ring for this thread: a retired one nobody reads when enough are kept,
/// else a new one.
fn attach() -> *const Ring {
    let tid = thread_id();
    let name = std::thread::current().name().unwrap_or("").to_owned();
    let capacity = capacity();
    let mut rings = RINGS.lock().unwrap_or_else(|e| e.into_inner());
    let retired = rings.iter().filter(|r| !r.alive.load(Relaxed)).count();
    if retired > KEEP_RETIRED {
        let reusable = rings.iter_mut().find_map(|r| {
            let fits = !r.alive.load(Relaxed) && r.bytes() == capacity.next_power_of_two() * super::ring::SLOT_BYTES;
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
            let p = Arc::as_ptr(&ring);
            rings.push(ring);
            return p;
        }
    }
    let ring = Arc::new(Ring::new(capacity, tid, name));
    memory::allocated(ring.bytes());
    let p = Arc::as_ptr(&ring);
    rings.push(ring);
    p
}

fn thread_id() -> u64 {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no preconditions.
    return unsafe { libc::gettid() } as u64;
    #[cfg(not(target_os = "linux"))]
    {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        NEXT.fetch_add(1, Relaxed)
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
    let threads = rings
        .iter()
        .map(|ring| {
            let mut events = Vec::new();
            torn += ring.read(&mut events);
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
    rings.iter().fold((0, 0), |(w, c), r| (w + r.written(), c + (r.bytes() / super::ring::SLOT_BYTES) as u64))
}
