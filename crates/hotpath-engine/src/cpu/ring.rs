//! A fixed ring of raw samples, filled by signal handlers on any thread and drained
//! by the `hp-cpu` thread. Bounded multi-producer queue with a sequence number per
//! slot (Vyukov): a producer claims a slot with one CAS and publishes it with one
//! release store; it never waits, and drops the sample (counted) when the ring is full.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::stack::DEPTH;

/// Bytes of stack copied per sample, starting at the stack pointer.
pub(crate) const STACK_BYTES: usize = 16 * 1024;
const SLOTS: usize = 128;

/// What a signal handler records about the interrupted thread.
pub(crate) struct RawSample {
    pub(crate) tid: u64,
    /// Timer periods this sample stands for: 1 plus the expirations the kernel merged
    /// into this signal (CPU timers are checked at the scheduler tick).
    pub(crate) weight: u64,
    pub(crate) ip: u64,
    pub(crate) sp: u64,
    pub(crate) bp: u64,
    /// Valid bytes of `stack` (0 when the stack could not be read).
    pub(crate) stack_len: usize,
    pub(crate) stack: [u8; STACK_BYTES],
    /// Measured site ids, outermost first.
    pub(crate) ids: [u32; DEPTH],
    pub(crate) ids_len: usize,
    pub(crate) truncated: bool,
}

impl RawSample {
    const fn empty() -> Self {
        Self {
            tid: 0,
            weight: 1,
            ip: 0,
            sp: 0,
            bp: 0,
            stack_len: 0,
            stack: [0; STACK_BYTES],
            ids: [0; DEPTH],
            ids_len: 0,
            truncated: false,
        }
    }
}

struct Slot {
    seq: AtomicUsize,
    sample: UnsafeCell<RawSample>,
}

pub(crate) struct Ring {
    slots: [Slot; SLOTS],
    enqueue: AtomicUsize,
    dequeue: AtomicUsize,
    pub(crate) dropped: AtomicU64,
}

// SAFETY: a slot's sample is written only by the producer that claimed it (between
// the CAS and the release store of `seq`) and read only by the single consumer after
// an acquire load of `seq` shows it published.
unsafe impl Sync for Ring {}

/// Zero-initialized, so it lives in .bss until slots are used (~2 MiB when full).
pub(crate) static RING: Ring = Ring::new();

impl Ring {
    const fn new() -> Self {
        let mut slots =
            [const { Slot { seq: AtomicUsize::new(0), sample: UnsafeCell::new(RawSample::empty()) } }; SLOTS];
        let mut i = 0;
        while i < SLOTS {
            slots[i].seq = AtomicUsize::new(i);
            i += 1;
        }
        Self { slots, enqueue: AtomicUsize::new(0), dequeue: AtomicUsize::new(0), dropped: AtomicU64::new(0) }
    }

    /// Claims a free slot, lets `fill` write it, publishes it. Signal-safe; returns
    /// false (and counts a drop) when the ring is full.
    pub(crate) fn push(&self, fill: impl FnOnce(&mut RawSample)) -> bool {
        let mut pos = self.enqueue.load(Ordering::Relaxed);
        let slot = loop {
            let slot = &self.slots[pos % SLOTS];
            let seq = slot.seq.load(Ordering::Acquire);
            match seq.cmp(&pos) {
                std::cmp::Ordering::Equal => {
                    match self.enqueue.compare_exchange_weak(pos, pos + 1, Ordering::Relaxed, Ordering::Relaxed) {
                        Ok(_) => break slot,
                        Err(now) => pos = now,
                    }
                }
                std::cmp::Ordering::Less => {
                    self.dropped.fetch_add(1, Ordering::Relaxed);
                    return false;
                }
                std::cmp::Ordering::Greater => pos = self.enqueue.load(Ordering::Relaxed),
            }
        };
        // SAFETY: this producer owns the slot until the store below (see `impl Sync`).
        fill(unsafe { &mut *slot.sample.get() });
        slot.seq.store(pos + 1, Ordering::Release);
        true
    }

    /// Hands every published sample to `f`, in order. Only the `hp-cpu` thread calls this.
    pub(crate) fn drain(&self, mut f: impl FnMut(&RawSample)) -> usize {
        let mut n = 0;
        loop {
            let pos = self.dequeue.load(Ordering::Relaxed);
            let slot = &self.slots[pos % SLOTS];
            if slot.seq.load(Ordering::Acquire) != pos + 1 {
                return n;
            }
            // SAFETY: published by its producer; no producer reuses it before the store below.
            f(unsafe { &*slot.sample.get() });
            self.dequeue.store(pos + 1, Ordering::Relaxed);
            slot.seq.store(pos + SLOTS, Ordering::Release);
            n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A private ring, built on a thread with a stack large enough for its 2 MiB.
    fn leaked() -> &'static Ring {
        let build = || -> &'static Ring { Box::leak(Box::new(Ring::new())) };
        std::thread::Builder::new().stack_size(64 << 20).spawn(build).unwrap().join().unwrap()
    }

    #[test]
    fn producers_on_many_threads_consumer_sees_each_once() {
        let ring = leaked();
        let mut seen = Vec::new();
        std::thread::scope(|s| {
            for t in 0..4u64 {
                s.spawn(move || {
                    for i in 0..40u64 {
                        while !ring.push(|r| (r.tid, r.ip) = (t, i)) {
                            std::thread::yield_now();
                        }
                    }
                });
            }
            while seen.len() < 160 {
                ring.drain(|r| seen.push((r.tid, r.ip)));
            }
        });
        seen.sort_unstable();
        let expected: Vec<(u64, u64)> = (0..4).flat_map(|t| (0..40).map(move |i| (t, i))).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn full_ring_drops_and_counts() {
        let ring = leaked();
        for _ in 0..SLOTS {
            assert!(ring.push(|_| {}));
        }
        assert!(!ring.push(|_| {}));
        assert_eq!(ring.dropped.load(Ordering::Relaxed), 1);
        assert_eq!(ring.drain(|_| {}), SLOTS);
        assert!(ring.push(|_| {}));
    }
}
