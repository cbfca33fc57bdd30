//! Every sample ever taken, freed or not, per raw stack: what pprof's `alloc_space`
//! and `alloc_objects` are estimated from. A fixed lock-free table keyed by a hash
//! of the stack, written on the sampling (cold) path only: one CAS to claim a slot
//! for a new stack, then counter increments. Stacks beyond its size are counted in
//! [`OVERFLOW`], never allocated for.

use std::sync::atomic::{AtomicU64, Ordering};

use super::estimate::Estimate;
use super::table::{Sample, FRAMES};

const SLOTS: usize = 4096;
const PROBES: usize = 32;
/// A claimed slot whose frames are still being written.
const WRITING: u64 = 1;

struct Slot {
    hash: AtomicU64,
    samples: AtomicU64,
    /// Sum of the sampled sizes.
    bytes: AtomicU64,
    len: AtomicU64,
    frames: [AtomicU64; FRAMES],
}

static TOTALS: [Slot; SLOTS] = [const {
    Slot {
        hash: AtomicU64::new(0),
        samples: AtomicU64::new(0),
        bytes: AtomicU64::new(0),
        len: AtomicU64::new(0),
        frames: [const { AtomicU64::new(0) }; FRAMES],
    }
}; SLOTS];
/// Samples of stacks that found no slot.
pub(crate) static OVERFLOW: AtomicU64 = AtomicU64::new(0);

fn hash(frames: &[u64]) -> u64 {
    let h = frames.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &f| (h ^ f).wrapping_mul(0x100_0000_01b3));
    h.max(WRITING + 1)
}

/// Counts a sample under its stack.
pub(crate) fn add(sample: &Sample) {
    let h = hash(sample.frames());
    for i in 0..PROBES {
        let slot = &TOTALS[(h as usize).wrapping_add(i) % SLOTS];
        let mut held = slot.hash.load(Ordering::Acquire);
        if held == 0 {
            match slot.hash.compare_exchange(0, WRITING, Ordering::Acquire, Ordering::Acquire) {
                Ok(_) => {
                    slot.len.store(sample.len as u64, Ordering::Relaxed);
                    for (to, from) in slot.frames.iter().zip(sample.frames()) {
                        to.store(*from, Ordering::Relaxed);
                    }
                    slot.hash.store(h, Ordering::Release);
                    held = h;
                }
                Err(now) => held = now,
            }
        }
        if held == h {
            slot.samples.fetch_add(1, Ordering::Relaxed);
            slot.bytes.fetch_add(sample.size as u64, Ordering::Relaxed);
            return;
        }
    }
    OVERFLOW.fetch_add(1, Ordering::Relaxed);
}

/// Forgets every stack, at a session's start (sampling is off, so nothing adds; a
/// sample still being added by a thread that checked before it went off may land in
/// a cleared slot's counters, one sample at most per such thread).
pub(crate) fn clear() {
    // Slots never claimed are left untouched (their pages may not be resident).
    for slot in TOTALS.iter().filter(|s| s.hash.load(Ordering::Acquire) != 0) {
        slot.samples.store(0, Ordering::Relaxed);
        slot.bytes.store(0, Ordering::Relaxed);
        slot.hash.store(0, Ordering::Release);
    }
    OVERFLOW.store(0, Ordering::Relaxed);
}

/// `(raw stack, estimate of everything allocated there)` for every stack seen. The
/// estimate treats the stack's samples as having its mean sampled size.
pub(crate) fn all(mean: u64) -> Vec<(Vec<u64>, Estimate)> {
    let mut out = Vec::new();
    for slot in &TOTALS {
        if slot.hash.load(Ordering::Acquire) <= WRITING {
            continue;
        }
        let len = (slot.len.load(Ordering::Relaxed) as usize).min(FRAMES);
        let frames: Vec<u64> = slot.frames[..len].iter().map(|f| f.load(Ordering::Relaxed)).collect();
        let samples = slot.samples.load(Ordering::Relaxed);
        let bytes = slot.bytes.load(Ordering::Relaxed);
        out.push((frames, Estimate::repeated(samples, bytes, mean)));
    }
    out
}
