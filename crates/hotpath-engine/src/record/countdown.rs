//! The overhead budget's timing countdowns: one per (thread, site), in a table of the
//! thread's indexed by site id, so that an untimed call finds its countdown and its
//! cell with one index and no pointer chase through the cell directory
//! (`functions/guard.rs`, `FnGuard::enter`).
//!
//! Which calls are timed: each countdown holds the calls left until the site's next
//! timed call on that thread, drawn from the geometric distribution of parameter
//! `2^-k` when the previous timed call starts. That is exactly an independent coin of
//! probability `2^-k` per call (the geometric law is memoryless), at the cost of a
//! decrement per untimed call instead of a random draw; the `k` a countdown was drawn
//! with is the weight of the call that ends it, whatever the collector set since. The
//! draws come from the thread's own stream of the seeded generator (`sampling::draw`).
//!
//! The table is written by its thread only, except [`Countdowns::restart`]: the
//! collector's, under the table's lock, which the owner takes only to grow the table.

use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

use super::cell::SiteCell;
use super::countdown_word::{word, Countdown};
use crate::memory;
use crate::sync::lock;

/// Marks a slot whose site is recursive (`FnSite::is_recursive`): its word reads
/// "time this call" to the untimed path, so every call of the site takes the slow
/// path, which keeps the site's recursion depth; the countdown that decides its calls
/// is then the cell's ([`Slot::countdown`]). Above any shift (at most 63).
const DIVERTED: u64 = 1 << 7;

/// One site's countdown on one thread, and the thread's cell of that site.
pub(crate) struct Slot {
    countdown: Countdown,
    /// Set once, with the first countdown; null in a slot no call has used.
    cell: AtomicPtr<SiteCell>,
}

impl Slot {
    const fn new() -> Self {
        Self { countdown: Countdown::new(), cell: AtomicPtr::new(ptr::null_mut()) }
    }

    /// The countdown that decides the calls of the slot's site, the owner's. For a
    /// recursive site the slot is diverted (once) and the cell's countdown decides:
    /// the untimed path, which keeps no depth, then never skips a call of the site.
    pub(crate) fn countdown<'a>(&'a self, cell: &'a SiteCell, recursive: bool) -> &'a Countdown {
        if !recursive {
            return &self.countdown;
        }
        if self.countdown.0.load(Relaxed) != DIVERTED {
            self.countdown.0.store(DIVERTED, Relaxed);
        }
        cell.weighted().countdown()
    }

    /// The collector's restart (see [`Countdown::restart`]): of the cell's countdown
    /// once the slot is diverted. A diversion racing it is never lost (the exchange
    /// fails and the diverted slot is read again); the owner's decrement may be.
    fn restart(&self, shift: u32, bits: u64) {
        let new = word(shift, bits);
        let mut old = self.countdown.0.load(Relaxed);
        while old != DIVERTED {
            match self.countdown.0.compare_exchange_weak(old, new, Relaxed, Relaxed) {
                Ok(_) => return,
                Err(now) => old = now,
            }
        }
        // SAFETY: a used slot's cell is its thread's, alive as long as the recorder
        // that owns this table, which the caller holds live (`restart_countdowns`).
        unsafe { &*self.cell.load(Relaxed) }.weighted().countdown().0.store(new, Relaxed);
    }
}

/// A thread's countdowns, indexed by site id.
pub(crate) struct Countdowns {
    /// The table's slots and length, as the owner's untimed calls read them: only
    /// the owner changes them, under `table`'s lock.
    base: AtomicPtr<Slot>,
    len: AtomicUsize,
    /// The length [`skip`](Self::skip) sees: `len`, or 0 while the thread's calls
    /// are forced, so that an untimed call tests one bound and not also the mode.
    open: AtomicUsize,
    forced: AtomicBool,
    table: Mutex<Box<[Slot]>>,
}

impl Countdowns {
    pub(crate) fn new() -> Self {
        Self {
            base: AtomicPtr::new(ptr::null_mut()),
            len: AtomicUsize::new(0),
            open: AtomicUsize::new(0),
            forced: AtomicBool::new(false),
            table: Mutex::new(Box::new([])),
        }
    }

    /// The owner's: while `on`, [`skip`](Self::skip) says `false` to every call (the
    /// thread's calls are forced, `recorder::FORCE`).
    pub(crate) fn force(&self, on: bool) {
        self.forced.store(on, Relaxed);
        self.open.store(if on { 0 } else { self.len.load(Relaxed) }, Relaxed);
    }

    /// The owner's untimed call of site `id`: `true` if the countdown runs on (it is
    /// decremented and the call counted in the site's cell), `false` if this call is
    /// timed, forced, or the slot is not made yet.
    #[inline(always)]
    pub(crate) fn skip(&self, id: u32) -> bool {
        let id = id as usize;
        if id >= self.open.load(Relaxed) {
            return false;
        }
        // SAFETY: `base` points at `len` slots; only this (the owner) thread replaces
        // them, in `slot`, which cannot run during this call.
        let slot = unsafe { &*self.base.load(Relaxed).add(id) };
        if !slot.countdown.skip() {
            return false;
        }
        // SAFETY: a slot with a countdown has its cell (set before its first
        // countdown), this thread's, which lives as long as the recorder that owns
        // this table. Not an `Option`: the caller would test it for null.
        unsafe { &*slot.cell.load(Relaxed) }.count_untimed();
        true
    }

    /// The owner's slot of site `id`, whose cell is `cell`: made (and the table
    /// grown) on first use, with a countdown that times its first call.
    pub(crate) fn slot(&self, id: u32, cell: &SiteCell) -> &Slot {
        let id = id as usize;
        if id >= self.len.load(Relaxed) {
            self.grow(id + 1);
        }
        // SAFETY: as in `skip`; `grow` made `len` larger than `id`.
        let slot = unsafe { &*self.base.load(Relaxed).add(id) };
        if slot.cell.load(Relaxed).is_null() {
            slot.cell.store(ptr::from_ref(cell).cast_mut(), Relaxed);
        }
        slot
    }

    #[cold]
    #[inline(never)]
    fn grow(&self, need: usize) {
        let mut table = lock(&self.table);
        let len = need.next_power_of_two().max(64);
        let size = std::mem::size_of::<Slot>();
        let grown: Box<[Slot]> = memory::untracked(|| {
            (0..len)
                .map(|i| match table.get(i) {
                    Some(old) => Slot {
                        countdown: Countdown(AtomicU64::new(old.countdown.0.load(Relaxed))),
                        cell: AtomicPtr::new(old.cell.load(Relaxed)),
                    },
                    None => Slot::new(),
                })
                .collect()
        });
        memory::allocated(len * size);
        memory::freed(table.len() * size);
        self.base.store(grown.as_ptr().cast_mut(), Relaxed);
        self.len.store(len, Relaxed);
        self.open.store(if self.forced.load(Relaxed) { 0 } else { len }, Relaxed);
        // The old slots go only now: the owner (this thread) no longer reads them, and
        // the collector reads slots under the lock held here.
        memory::untracked(|| *table = grown);
    }

    /// The collector's: restarts site `id`'s countdown at `shift`, if this thread
    /// has one.
    pub(crate) fn restart(&self, id: usize, shift: u32, bits: u64) {
        if let Some(slot) = lock(&self.table).get(id).filter(|s| !s.cell.load(Relaxed).is_null()) {
            slot.restart(shift, bits);
        }
    }
}

impl Drop for Countdowns {
    fn drop(&mut self) {
        let len = lock(&self.table).len();
        memory::freed(len * std::mem::size_of::<Slot>());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_grows_keeping_countdowns_and_skips_only_made_slots() {
        let t = Countdowns::new();
        let (a, b) = (SiteCell::new(), SiteCell::new());
        assert!(!t.skip(3), "no slot yet");
        t.slot(3, &a).restart(20, 1);
        assert!(t.skip(3), "a long countdown");
        assert_eq!(a.counted(), (1, 0), "the untimed call is counted in its cell");
        assert!(!t.skip(4), "a slot no call made");
        // Growing past 64 copies the running countdown and its cell.
        t.slot(200, &b);
        assert!(t.len.load(Relaxed) >= 201);
        assert!(t.skip(3), "kept");
        assert_eq!((a.counted(), b.counted()), ((2, 0), (0, 0)));
        assert!(!t.skip(200), "a new slot times its first call");
        t.restart(200, 0, 7);
        t.restart(9999, 0, 7);
        assert!(!t.skip(200));
        // Forced, no call skips, through a growth; the countdown waits.
        t.force(true);
        assert!(!t.skip(3), "forced calls are timed");
        t.slot(300, &b);
        assert!(!t.skip(3), "still forced after growing");
        t.force(false);
        assert!(t.skip(3), "the countdown ran on where it was");
        assert_eq!(a.counted(), (3, 0));
    }

    #[test]
    fn a_recursive_sites_calls_all_leave_the_untimed_path_and_the_cells_countdown_decides() {
        let t = Countdowns::new();
        let a = SiteCell::new();
        t.slot(5, &a).restart(20, 1);
        assert!(t.skip(5));
        let own = t.slot(5, &a).countdown(&a, true);
        assert!(std::ptr::eq(own, a.weighted().countdown()), "the cell's decides");
        assert!(!t.skip(5), "diverted: every call takes the slow path");
        assert!(!own.skip(), "a new countdown times its first call");
        assert_eq!(own.redraw(20), 0);
        assert!(own.skip());
        // The collector's restart reaches the cell's countdown and leaves the slot diverted.
        t.restart(5, 0, 9);
        assert!(!own.skip(), "restarted at k = 0");
        assert!(!t.skip(5), "still diverted");
        assert_eq!(a.counted(), (1, 0), "only the untimed path counts");
    }
}
