//! The live table: sampled allocations still live, keyed by address, and the filter
//! that lets a free of an unsampled address skip it.
//!
//! Both are fixed statics (zeroed, in .bss: pages become resident only when touched),
//! written from inside the allocator by any thread, so they are lock-free: a slot is
//! claimed by a CAS of its key from empty or removed to `BUSY`, filled, then published
//! by storing the address (Release). A lookup probes at most [`PROBES`] slots from the
//! address's hash, past removed and busy slots, and stops at an empty one. Nothing
//! here allocates, locks or panics; an insert that finds no slot is dropped and counted.
//!
//! The filter is a table of counters indexed by another hash of the address: a
//! sampled insert adds one, its removal takes one away. A free reads one counter and,
//! when it is zero (always, for an address never sampled that shares no counter with
//! a live sample), returns: one load and one predictable branch. With `L` live samples
//! the chance that an unsampled free goes further is at most `L / FILTER_SLOTS`.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// Live sampled allocations held at once; more are dropped and counted.
pub(crate) const SLOTS: usize = 1 << 13;
/// Frames kept per sample (leaf first), after the allocator's own.
pub(crate) const FRAMES: usize = 32;
const PROBES: usize = 64;
const FILTER_SLOTS: usize = 1 << 16;

const EMPTY: usize = 0;
const BUSY: usize = 1;
const REMOVED: usize = 2;

/// One live sampled allocation.
pub(crate) struct Slot {
    key: AtomicUsize,
    size: AtomicUsize,
    len: AtomicUsize,
    frames: [AtomicU64; FRAMES],
}

impl Slot {
    const fn new() -> Self {
        Self {
            key: AtomicUsize::new(EMPTY),
            size: AtomicUsize::new(0),
            len: AtomicUsize::new(0),
            frames: [const { AtomicU64::new(0) }; FRAMES],
        }
    }
}

/// A sample's stack and size, as inserted and as read back.
#[derive(Clone, Copy)]
pub(crate) struct Sample {
    pub(crate) size: usize,
    pub(crate) len: usize,
    pub(crate) frames: [u64; FRAMES],
}

impl Sample {
    pub(crate) const EMPTY: Self = Self { size: 0, len: 0, frames: [0; FRAMES] };

    pub(crate) fn frames(&self) -> &[u64] {
        &self.frames[..self.len.min(FRAMES)]
    }
}

static TABLE: [Slot; SLOTS] = [const { Slot::new() }; SLOTS];
static FILTER: [AtomicU32; FILTER_SLOTS] = [const { AtomicU32::new(0) }; FILTER_SLOTS];
/// Samples not kept because no slot was free within the probe limit.
pub(crate) static DROPPED: AtomicU64 = AtomicU64::new(0);

#[inline(always)]
fn mix(addr: usize) -> u64 {
    (addr as u64 ^ (addr as u64 >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[inline(always)]
fn filter_slot(addr: usize) -> &'static AtomicU32 {
    &FILTER[(mix(addr) >> (64 - 16)) as usize]
}

fn home(addr: usize) -> usize {
    (mix(addr).rotate_left(23) as usize) % SLOTS
}

/// Whether `addr` may be a live sample: the one check every free pays.
#[inline(always)]
pub(crate) fn maybe_sampled(addr: usize) -> bool {
    filter_slot(addr).load(Ordering::Acquire) != 0
}

/// Records a sampled allocation at `addr`; `false` when dropped (counted).
pub(crate) fn insert(addr: usize, sample: &Sample) -> bool {
    if addr <= REMOVED {
        return false;
    }
    let start = home(addr);
    for i in 0..PROBES {
        let slot = &TABLE[(start + i) % SLOTS];
        let key = slot.key.load(Ordering::Relaxed);
        if key != EMPTY && key != REMOVED {
            continue;
        }
        if slot.key.compare_exchange(key, BUSY, Ordering::Acquire, Ordering::Relaxed).is_err() {
            continue;
        }
        slot.size.store(sample.size, Ordering::Relaxed);
        slot.len.store(sample.len, Ordering::Relaxed);
        for (to, from) in slot.frames.iter().zip(sample.frames()) {
            to.store(*from, Ordering::Relaxed);
        }
        slot.key.store(addr, Ordering::Release);
        filter_slot(addr).fetch_add(1, Ordering::Release);
        return true;
    }
    DROPPED.fetch_add(1, Ordering::Relaxed);
    false
}

/// Removes the sample at `addr`, if there is one, and returns it.
pub(crate) fn remove(addr: usize) -> Option<Sample> {
    let start = home(addr);
    for i in 0..PROBES {
        let slot = &TABLE[(start + i) % SLOTS];
        match slot.key.load(Ordering::Acquire) {
            EMPTY => return None,
            key if key != addr => continue,
            _ => {}
        }
        if slot.key.compare_exchange(addr, BUSY, Ordering::Acquire, Ordering::Relaxed).is_err() {
            // Another free of the same address: a double free in the program.
            return None;
        }
        let sample = read(slot);
        slot.key.store(REMOVED, Ordering::Release);
        filter_slot(addr).fetch_sub(1, Ordering::Release);
        return Some(sample);
    }
    None
}

/// The size of the live sample at `addr`, if there is one (tests).
#[cfg(test)]
pub(crate) fn size_at(addr: usize) -> Option<usize> {
    let start = home(addr);
    (0..PROBES)
        .map(|i| &TABLE[(start + i) % SLOTS])
        .take_while(|slot| slot.key.load(Ordering::Acquire) != EMPTY)
        .find(|slot| slot.key.load(Ordering::Acquire) == addr)
        .map(|slot| slot.size.load(Ordering::Relaxed))
}

fn read(slot: &Slot) -> Sample {
    let mut sample = Sample::EMPTY;
    sample.size = slot.size.load(Ordering::Relaxed);
    sample.len = slot.len.load(Ordering::Relaxed).min(FRAMES);
    for (to, from) in sample.frames.iter_mut().zip(&slot.frames).take(sample.len) {
        *to = from.load(Ordering::Relaxed);
    }
    sample
}

/// Every live sample (a copy; slots changing meanwhile are read again or skipped).
pub(crate) fn live() -> Vec<Sample> {
    let mut out = Vec::new();
    for slot in &TABLE {
        let key = slot.key.load(Ordering::Acquire);
        if key <= REMOVED {
            continue;
        }
        let sample = read(slot);
        // A slot freed and reused while being read is skipped: its sample is either
        // gone or new, and the next snapshot sees it.
        if slot.key.load(Ordering::Acquire) == key {
            out.push(sample);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_find_remove_and_the_filter() {
        let mut sample = Sample::EMPTY;
        sample.size = 1024;
        sample.len = 2;
        sample.frames[..2].copy_from_slice(&[0x1000, 0x2000]);
        // Addresses far from any real heap block, distinct per test run.
        let base = 0x7fff_0000_0000_usize;
        assert!(!maybe_sampled(base));
        for i in 0..100 {
            assert!(insert(base + i * 16, &sample));
        }
        assert!(maybe_sampled(base + 16 * 7));
        let got = remove(base + 16 * 7).expect("sampled");
        assert_eq!((got.size, got.frames()), (1024, &[0x1000, 0x2000][..]));
        assert!(remove(base + 16 * 7).is_none(), "removed once");
        assert!(remove(base + 8).is_none(), "never sampled");
        let mine = |s: &Sample| s.frames() == [0x1000, 0x2000];
        assert_eq!(live().iter().filter(|s| mine(s)).count(), 99);
        for i in 0..100 {
            remove(base + i * 16);
        }
        assert_eq!(live().iter().filter(|s| mine(s)).count(), 0);
        assert!(!maybe_sampled(base), "the filter is back to zero");
    }
}
