//! One thread's event ring: a power-of-two array of fixed-size slots, written only by
//! its thread, oldest events overwritten. Readers on other threads copy events while
//! the owner keeps writing. The owner publishes the count of events written after
//! each event's words, and the event it writes overwrites the one a full ring
//! earlier; so a reader that copied slots and then reads the count again knows which
//! of its copies the owner may have been overwriting meanwhile, and drops them.
//!
//! The count and the size sit in a header slot in front of the events, so a writer
//! holding a [`Writer`] (the header's address) reaches all it needs from one pointer.

use std::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering::*};

use super::event::Event;

/// One slot: an event's four words, a slot to a 32-byte line segment. The header
/// slot holds the count of events written times [`SLOT_BYTES`] (`what`), and the
/// events' bytes minus one slot (`start`): the mask that turns the first into the
/// offset of the next event's slot, with no multiplication on the writer's path.
#[derive(Default)]
#[repr(C, align(32))]
struct Slot {
    what: AtomicU64,
    start: AtomicU64,
    len: AtomicU64,
    extra: AtomicU64,
}

/// A thread's ring and who it belongs to.
pub(crate) struct Ring {
    /// The header, then the events.
    slots: Box<[Slot]>,
    pub(crate) tid: u64,
    pub(crate) name: String,
    /// False once the owner exited; a retired ring keeps its events until reused.
    pub(crate) alive: AtomicBool,
}

/// Bytes one event takes in a ring.
pub(crate) const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// The owner's handle on its ring: the header slot's address. Valid while the ring is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Writer(*const Slot);

impl Writer {
    /// The header's address, for a writer that keeps it as a plain pointer.
    pub(crate) fn as_ptr(self) -> *const () {
        self.0.cast()
    }

    /// The handle whose address [`as_ptr`](Self::as_ptr) gave.
    pub(crate) fn from_ptr(p: *const ()) -> Self {
        Self(p.cast())
    }

    /// Appends one event whose fourth word is not read (a measured call's).
    ///
    /// # Safety
    /// The ring is alive and the calling thread is its only writer.
    #[inline(always)]
    pub(crate) unsafe fn push3(self, what: u64, start: u64, len: u64) {
        // SAFETY: the caller's contract.
        unsafe {
            self.slot_for_next(|slot| {
                slot.what.store(what, Relaxed);
                slot.start.store(start, Relaxed);
                slot.len.store(len, Relaxed);
            })
        };
    }

    /// Appends one event.
    ///
    /// # Safety
    /// As for [`push3`](Self::push3).
    #[inline(always)]
    pub(crate) unsafe fn push(self, what: u64, start: u64, len: u64, extra: u64) {
        // SAFETY: as in `push3`.
        unsafe {
            self.slot_for_next(|slot| {
                slot.what.store(what, Relaxed);
                slot.start.store(start, Relaxed);
                slot.len.store(len, Relaxed);
                slot.extra.store(extra, Relaxed);
            })
        };
    }

    /// Lets `write` fill the next event's slot, then publishes the count.
    ///
    /// # Safety
    /// As for [`push3`](Self::push3).
    #[inline(always)]
    unsafe fn slot_for_next(self, write: impl FnOnce(&Slot)) {
        // SAFETY: the header is alive (the caller's contract).
        let header = unsafe { &*self.0 };
        let written = header.what.load(Relaxed);
        let offset = (written & header.start.load(Relaxed)) as usize;
        // SAFETY: `offset` is a multiple of the slot size below the events' bytes, and
        // the events follow the header.
        let slot = unsafe { &*self.0.add(1).byte_add(offset) };
        // Orders the count published for the previous event before these words: a
        // reader that sees one of them then sees that count (or a later one).
        fence(Release);
        write(slot);
        header.what.store(written + SLOT_BYTES as u64, Release);
    }
}

impl Ring {
    /// A ring of `capacity` events (rounded up to a power of two, at least 2).
    pub(crate) fn new(capacity: usize, tid: u64, name: String) -> Self {
        let capacity = capacity.max(2).next_power_of_two();
        let slots: Box<[Slot]> = (0..=capacity).map(|_| Slot::default()).collect();
        slots[0].start.store(((capacity - 1) * SLOT_BYTES) as u64, Relaxed);
        Self { slots, tid, name, alive: AtomicBool::new(true) }
    }

    /// The owner's handle.
    pub(crate) fn writer(&self) -> Writer {
        Writer(self.slots.as_ptr())
    }

    /// Events the ring holds at most.
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len() - 1
    }

    /// Bytes the ring holds.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    /// Makes the ring a new thread's: its old events are gone for readers.
    pub(crate) fn adopt(&mut self, tid: u64, name: String) {
        self.tid = tid;
        self.name = name;
        *self.slots[0].what.get_mut() = 0;
        *self.alive.get_mut() = true;
    }

    /// Appends one event. Owner thread only: plain stores, no lock, no allocation.
    #[inline(always)]
    pub(crate) fn push(&self, what: u64, start: u64, len: u64, extra: u64) {
        // SAFETY: `self` is alive; the owner thread is the only writer.
        unsafe { self.writer().push(what, start, len, extra) }
    }

    /// Copies the ring's newest events (all but one slot's worth), oldest first, into
    /// `out`; returns how many were torn (overwritten while they were read) and left
    /// out. `words` is scratch space.
    pub(crate) fn read(&self, out: &mut Vec<Event>, words: &mut Vec<[u64; 4]>) -> u64 {
        let (header, events) = self.slots.split_first().expect("a header slot");
        let head = header.what.load(Acquire) / SLOT_BYTES as u64;
        let size = events.len() as u64;
        // The oldest slot is left out: it is the one the next event overwrites, which
        // may be under way now.
        let first = head.saturating_sub(size - 1);
        words.clear();
        words.extend((first..head).map(|i| {
            let slot = &events[(i % size) as usize];
            [slot.what.load(Relaxed), slot.start.load(Relaxed), slot.len.load(Relaxed), slot.extra.load(Relaxed)]
        }));
        fence(Acquire);
        // Writing event `now` overwrites event `now - size`: that one and older ones may
        // be mixed with newer words.
        let now = header.what.load(Relaxed) / SLOT_BYTES as u64;
        let whole_from = (now + 1).saturating_sub(size).max(first);
        let torn = whole_from.min(head) - first;
        let whole = &words[(torn as usize)..];
        out.extend(whole.iter().filter_map(|w| Event::from_words(w[0], w[1], w[2], w[3])));
        torn
    }

    /// Events written over the ring's life (also those since overwritten).
    pub(crate) fn written(&self) -> u64 {
        self.slots[0].what.load(Relaxed) / SLOT_BYTES as u64
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
        assert_eq!(ring.read(&mut out, &mut Vec::new()), 0);
        assert_eq!(out.iter().map(|e| e.start).collect::<Vec<_>>(), vec![7, 8, 9]);
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
                    ring.push(Event::what(Kind::Io, i as u32), i, i, i);
                }
            })
        };
        let whole = |e: &Event| e.start == e.len && e.len == e.extra && e.id as u64 == e.start;
        while !writer.is_finished() {
            let mut out = Vec::new();
            ring.read(&mut out, &mut Vec::new());
            assert!(out.iter().all(whole), "a copy mixes two events");
        }
        writer.join().unwrap();
        // The writer may have finished before the first read above (a loaded machine):
        // this read then sees its events for the first time.
        let mut last = Vec::new();
        assert_eq!(ring.read(&mut last, &mut Vec::new()), 0, "nothing torn once the writer is done");
        assert!(last.iter().all(whole));
        assert_eq!(last.len(), 63, "all but the slot the next event overwrites");
        assert_eq!(last.last().map(|e| e.start), Some(199_999));
    }
}
