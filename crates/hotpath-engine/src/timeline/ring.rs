//! One thread's event ring: a power-of-two array of fixed-size slots, written only by
//! its thread, oldest events overwritten. Readers on other threads copy events while
//! the owner keeps writing; each slot carries the index of the event it holds, so a
//! copy that raced with a write is detected (a per-slot sequence lock) and dropped.

use std::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering::*};

use super::event::Event;

/// One slot: the event's index + 1 (0 while it is written), then its four words.
#[derive(Default)]
struct Slot {
    seq: AtomicU64,
    what: AtomicU64,
    start: AtomicU64,
    len: AtomicU64,
    extra: AtomicU64,
}

/// A thread's ring and who it belongs to.
pub(crate) struct Ring {
    slots: Box<[Slot]>,
    mask: u64,
    /// Events written so far (the next event's index). Written by the owner only.
    head: AtomicU64,
    pub(crate) tid: u64,
    pub(crate) name: String,
    /// False once the owner exited; a retired ring keeps its events until reused.
    pub(crate) alive: AtomicBool,
}

/// Bytes one event takes in a ring.
pub(crate) const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

impl Ring {
    /// A ring of `capacity` events (rounded up to a power of two, at least 2).
    pub(crate) fn new(capacity: usize, tid: u64, name: String) -> Self {
        let capacity = capacity.max(2).next_power_of_two();
        let slots = (0..capacity).map(|_| Slot::default()).collect();
        Self { slots, mask: capacity as u64 - 1, head: AtomicU64::new(0), tid, name, alive: AtomicBool::new(true) }
    }

    /// Bytes the ring holds.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    /// Makes the ring a new thread's: its old events stay readable until overwritten.
    pub(crate) fn adopt(&mut self, tid: u64, name: String) {
        self.tid = tid;
        self.name = name;
        self.head = AtomicU64::new(0);
        self.slots.iter_mut().for_each(|s| *s.seq.get_mut() = 0);
        *self.alive.get_mut() = true;
    }

    /// Appends one event. Owner thread only: plain stores, no lock, no allocation.
    #[inline(always)]
    pub(crate) fn push(&self, what: u64, start: u64, len: u64, extra: u64) {
        let i = self.head.load(Relaxed);
        self.head.store(i + 1, Relaxed);
        let slot = &self.slots[(i & self.mask) as usize];
        slot.seq.store(0, Relaxed);
        // Orders the mark above before the words below: a reader that sees a new word
        // then sees the mark (or the final index) when it reads `seq` again.
        fence(Release);
        slot.what.store(what, Relaxed);
        slot.start.store(start, Relaxed);
        slot.len.store(len, Relaxed);
        slot.extra.store(extra, Relaxed);
        slot.seq.store(i + 1, Release);
    }

    /// Copies the ring's events, oldest first, into `out`; returns how many were torn
    /// (overwritten or being written while they were read) and left out.
    pub(crate) fn read(&self, out: &mut Vec<Event>) -> u64 {
        let head = self.head.load(Acquire);
        let first = head.saturating_sub(self.mask + 1);
        let mut torn = 0;
        for i in first..head {
            let slot = &self.slots[(i & self.mask) as usize];
            let before = slot.seq.load(Acquire);
            let event = Event::from_words(
                slot.what.load(Relaxed),
                slot.start.load(Relaxed),
                slot.len.load(Relaxed),
                slot.extra.load(Relaxed),
            );
            fence(Acquire);
            let after = slot.seq.load(Relaxed);
            if before == i + 1 && after == i + 1 {
                out.extend(event);
            } else {
                torn += 1;
            }
        }
        torn
    }

    /// Events written over the ring's life (also those since overwritten).
    pub(crate) fn written(&self) -> u64 {
        self.head.load(Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::event::Kind;

    #[test]
    fn keeps_the_newest_events_in_order() {
        let ring = Ring::new(4, 1, "t".into());
        for i in 0..10u64 {
            ring.push(Event::what(Kind::Call, 7), i, 1, 0);
        }
        let mut out = Vec::new();
        assert_eq!(ring.read(&mut out), 0);
        assert_eq!(out.iter().map(|e| e.start).collect::<Vec<_>>(), vec![6, 7, 8, 9]);
        assert_eq!(ring.written(), 10);
    }

    #[test]
    fn a_reader_racing_the_writer_sees_only_whole_events() {
        let ring = std::sync::Arc::new(Ring::new(64, 1, "t".into()));
        let writer = {
            let ring = ring.clone();
            std::thread::spawn(move || {
                for i in 0..200_000u64 {
                    // Every word of event i is i, so a mixed copy shows.
                    ring.push(Event::what(Kind::Call, i as u32), i, i, i);
                }
            })
        };
        let mut seen = 0;
        while !writer.is_finished() {
            let mut out = Vec::new();
            ring.read(&mut out);
            for e in &out {
                assert!(e.start == e.len && e.len == e.extra && e.id as u64 == e.start);
            }
            seen += out.len();
        }
        writer.join().unwrap();
        let mut last = Vec::new();
        assert_eq!(ring.read(&mut last), 0, "nothing torn once the writer is done");
        seen += last.len();
        assert_eq!(last.last().map(|e| e.start), Some(199_999));
        assert!(seen >= 64);
    }
}
