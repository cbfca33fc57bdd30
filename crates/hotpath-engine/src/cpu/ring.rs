//! A fixed ring of records, filled by signal handlers on any thread and drained by
//! one consumer. Bounded multi-producer queue with a sequence number per slot
//! (Vyukov): a producer claims a slot with one CAS and publishes it with one release
//! store; it never waits, and drops the record (counted) when the ring is full.
//! Records are written in place, so a handler never copies a large one on its stack.
//!
//! The atomics and the cell come from `crate::sync`, so a loom build model-checks
//! this file as it is (see `loom_tests` below).

use crate::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use crate::sync::cell::UnsafeCell;

/// A record's value in a slot never written (records are filled in place).
pub(crate) trait Empty {
    const EMPTY: Self;
}

struct Slot<T> {
    /// `pos` when free for the producer of position `pos`, `pos + 1` once published,
    /// `pos + N` once consumed (free for the next lap).
    seq: AtomicUsize,
    record: UnsafeCell<T>,
}

pub(crate) struct Ring<T, const N: usize> {
    slots: [Slot<T>; N],
    enqueue: AtomicUsize,
    dequeue: AtomicUsize,
    pub(crate) dropped: AtomicU64,
}

// SAFETY: a slot's record is written only by the producer that claimed it (between
// the CAS on `enqueue` and the release store of `seq`) and read only by the single
// consumer after an acquire load of `seq` shows it published; records cross threads,
// hence `T: Send`.
unsafe impl<T: Send, const N: usize> Sync for Ring<T, N> {}

impl<T: Empty, const N: usize> Ring<T, N> {
    /// An empty ring; `const` so that it can be a zero-initialized static.
    #[cfg(not(all(loom, test)))]
    pub(crate) const fn new() -> Self {
        // With one slot, "published" (pos + 1) and "free next lap" (pos + N) coincide.
        const { assert!(N >= 2) };
        let mut slots = [const { Slot { seq: AtomicUsize::new(0), record: UnsafeCell::new(T::EMPTY) } }; N];
        let mut i = 0;
        while i < N {
            slots[i].seq = AtomicUsize::new(i);
            i += 1;
        }
        Self { slots, enqueue: AtomicUsize::new(0), dequeue: AtomicUsize::new(0), dropped: AtomicU64::new(0) }
    }

    /// Loom's atomics cannot be built in a constant.
    #[cfg(all(loom, test))]
    pub(crate) fn new() -> Self {
        const { assert!(N >= 2) };
        let slots = std::array::from_fn(|i| Slot { seq: AtomicUsize::new(i), record: UnsafeCell::new(T::EMPTY) });
        Self { slots, enqueue: AtomicUsize::new(0), dequeue: AtomicUsize::new(0), dropped: AtomicU64::new(0) }
    }
}

impl<T, const N: usize> Ring<T, N> {
    /// Claims a free slot, lets `fill` write it, publishes it. Signal-safe; returns
    /// false (and counts a drop) when the ring is full.
    pub(crate) fn push(&self, fill: impl FnOnce(&mut T)) -> bool {
        let mut pos = self.enqueue.load(Ordering::Relaxed);
        let slot = loop {
            let slot = &self.slots[pos % N];
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
        slot.record.with_mut(|record| fill(unsafe { &mut *record }));
        slot.seq.store(pos + 1, Ordering::Release);
        true
    }

    /// Whether no record has been claimed since the last drain (a snapshot).
    pub(crate) fn is_empty(&self) -> bool {
        self.enqueue.load(Ordering::Relaxed) == self.dequeue.load(Ordering::Relaxed)
    }

    /// Hands every published record to `f`, in order. One consumer only.
    pub(crate) fn drain(&self, mut f: impl FnMut(&T)) -> usize {
        let mut n = 0;
        loop {
            let pos = self.dequeue.load(Ordering::Relaxed);
            let slot = &self.slots[pos % N];
            if slot.seq.load(Ordering::Acquire) != pos + 1 {
                return n;
            }
            // SAFETY: published by its producer; no producer reuses it before the store below.
            slot.record.with(|record| f(unsafe { &*record }));
            self.dequeue.store(pos + 1, Ordering::Relaxed);
            slot.seq.store(pos + N, Ordering::Release);
            n += 1;
        }
    }
}

/// Test records: a producer id and a value derived from it, to spot torn records.
#[cfg(test)]
impl Empty for (u64, u64) {
    const EMPTY: Self = (0, 0);
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn producers_on_many_threads_consumer_sees_each_once() {
        let ring = Ring::<(u64, u64), 16>::new();
        let mut seen = Vec::new();
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let ring = &ring;
                s.spawn(move || {
                    for i in 0..40u64 {
                        while !ring.push(|r| *r = (t, i)) {
                            std::thread::yield_now();
                        }
                    }
                });
            }
            while seen.len() < 160 {
                ring.drain(|r| seen.push(*r));
            }
        });
        seen.sort_unstable();
        let expected: Vec<(u64, u64)> = (0..4).flat_map(|t| (0..40).map(move |i| (t, i))).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn full_ring_drops_and_counts() {
        let ring = Ring::<(u64, u64), 8>::new();
        for _ in 0..8 {
            assert!(ring.push(|_| {}));
        }
        assert!(!ring.push(|_| {}));
        assert_eq!(ring.dropped.load(Ordering::Relaxed), 1);
        assert_eq!(ring.drain(|_| {}), 8);
        assert!(ring.push(|_| {}));
    }
}

/// Model checks: every interleaving of producers and the consumer, within loom's
/// preemption bound (`LOOM_MAX_PREEMPTIONS`). Readers are spawned after writers, so
/// that loom's first schedule runs them later and it backtracks from their reads.
#[cfg(all(loom, test))]
mod loom_tests {
    use loom::sync::Arc;
    use loom::thread;

    use super::*;

    fn record(t: u64) -> (u64, u64) {
        (t, t * 1_000 + 7)
    }

    #[test]
    fn loom_two_producers_one_consumer_each_record_once() {
        loom::model(|| {
            let ring = Arc::new(Ring::<(u64, u64), 2>::new());
            let producers: Vec<_> = (1..=2u64)
                .map(|t| {
                    let ring = Arc::clone(&ring);
                    thread::spawn(move || assert!(ring.push(|r| *r = record(t)), "two slots hold two records"))
                })
                .collect();
            let consumer = {
                let ring = Arc::clone(&ring);
                thread::spawn(move || {
                    let mut seen = Vec::new();
                    ring.drain(|r| seen.push(*r));
                    seen
                })
            };
            producers.into_iter().for_each(|p| p.join().unwrap());
            let mut seen = consumer.join().unwrap();
            ring.drain(|r| seen.push(*r));
            seen.sort_unstable();
            assert_eq!(seen, vec![record(1), record(2)]);
        });
    }

    #[test]
    fn loom_slots_are_reused_across_laps_without_tearing() {
        loom::model(|| {
            let ring = Arc::new(Ring::<(u64, u64), 2>::new());
            let producer = {
                let ring = Arc::clone(&ring);
                thread::spawn(move || (1..=3u64).filter(|&t| ring.push(|r| *r = record(t))).collect::<Vec<_>>())
            };
            let consumer = {
                let ring = Arc::clone(&ring);
                thread::spawn(move || {
                    let mut seen = Vec::new();
                    ring.drain(|r| seen.push(*r));
                    ring.drain(|r| seen.push(*r));
                    seen
                })
            };
            let pushed = producer.join().unwrap();
            let mut seen = consumer.join().unwrap();
            ring.drain(|r| seen.push(*r));
            let expected: Vec<_> = pushed.iter().map(|&t| record(t)).collect();
            assert_eq!(seen, expected, "in order, each once, never torn");
            let dropped = ring.dropped.load(Ordering::Relaxed);
            assert_eq!(dropped as usize + pushed.len(), 3);
        });
    }
}
