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
use crate::memory;
use crate::sync::lock;

/// One call in the countdown word: bits 8.. count calls, bits 0..8 hold the `k` the
/// countdown was drawn with. So "more than one call left" is one compare and an
/// untimed call one subtraction.
const ONE: u64 = 1 << 8;
const SHIFT: u64 = ONE - 1;

/// One site's countdown on one thread, and the thread's cell of that site.
pub(crate) struct Slot {
    countdown: AtomicU64,
    /// Set once, with the first countdown; null in a slot no call has used.
    cell: AtomicPtr<SiteCell>,
}

impl Slot {
    const fn new() -> Self {
        Self { countdown: AtomicU64::new(0), cell: AtomicPtr::new(ptr::null_mut()) }
    }

    /// Whether this call is left untimed: the countdown runs on; at its end the call
    /// is timed and [`redraw`](Self::redraw) must follow.
    #[inline(always)]
    pub(crate) fn skip(&self) -> bool {
        let v = self.countdown.load(Relaxed);
        let skip = v >= 2 * ONE;
        if skip {
            self.countdown.store(v - ONE, Relaxed);
        }
        skip
    }

    /// At a timed call: returns the `k` its countdown was drawn with (its weight is
    /// `2^k`) and draws the next countdown at the site's current `shift`.
    pub(crate) fn redraw(&self, shift: u32) -> u32 {
        let drawn = (self.countdown.load(Relaxed) & SHIFT) as u32;
        self.restart(shift, crate::sampling::draw());
        drawn
    }

    /// A new countdown at `shift` from the random bits `bits`: the collector's, when
    /// it raises a site's rate (a countdown drawn at the old, lower rate would hold
    /// the site there until it ran out: about `2^k` calls). The calls after it are
    /// decided at the new rate, each still independently of the others and of its
    /// duration, so the estimates stay unbiased. Racing the owner's decrement, one of
    /// the two stores wins whole.
    pub(crate) fn restart(&self, shift: u32, bits: u64) {
        let shift = shift.min(63);
        self.countdown.store((geometric(shift, bits) * ONE) | u64::from(shift), Relaxed);
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
        if !slot.skip() {
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
                        countdown: AtomicU64::new(old.countdown.load(Relaxed)),
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

/// A draw of the geometric distribution on 1, 2, ... of parameter `2^-shift`: the
/// position of the first success in independent trials of that probability.
/// `bits` are uniform random bits. At most `1e15 + 1`, so it fits the word's 56 bits.
fn geometric(shift: u32, bits: u64) -> u64 {
    if shift == 0 {
        return 1;
    }
    let p = (-f64::from(shift)).exp2();
    // u in (0, 1]: 53 random bits, never 0.
    let u = ((bits >> 11) + 1) as f64 * (-53f64).exp2();
    let n = (u.ln() / (-p).ln_1p()).floor();
    1 + if n.is_finite() && n < 1e15 { n as u64 } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_countdown_times_one_call_in_2_to_the_k_and_names_its_weight() {
        let slot = Slot::new();
        // A new slot times its first call, at weight 1, and draws at the given rate.
        assert!(!slot.skip());
        assert_eq!(slot.redraw(3), 0);
        let mut timed = 0u32;
        for _ in 0..80_000 {
            if !slot.skip() {
                timed += 1;
                assert_eq!(slot.redraw(3), 3, "a countdown drawn at k = 3 weighs 2^3");
            }
        }
        // Bin(80,000, 1/8): mean 10,000, sd 94; the bounds are 10 sd away.
        assert!((9_060..10_940).contains(&timed), "{timed} of 80,000 timed at 1/8");
        // A restart at k = 0 times the next call, and it weighs 1.
        slot.restart(0, 12_345);
        assert!(!slot.skip());
        assert_eq!(slot.redraw(0), 0);
        assert!(!slot.skip(), "at k = 0 every call is timed");
        assert_eq!(geometric(0, 0), 1);
    }

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
}
