//! A bounded ring of log records: slots are created until the limit, then the oldest
//! is refilled and moved to the back, so its strings' capacity is reused (no allocation
//! in steady state). The oldest record can also be dropped (the logs' shared byte
//! budget). The caller holds the entry's lock; the ring counts what it holds in
//! `memory::profiler_bytes`.

use std::collections::VecDeque;

use crate::memory;

/// A record that knows its heap footprint (string capacities), for memory accounting.
pub(crate) trait Record: Default {
    fn heap_bytes(&self) -> usize;
}

/// The last `capacity` records, and how many were ever written.
pub(crate) struct Ring<R> {
    /// Oldest first; a full ring moves its oldest record to the back and refills it.
    slots: VecDeque<R>,
    total: u64,
}

impl<R: Record> Ring<R> {
    pub(crate) const fn new() -> Self {
        Self { slots: VecDeque::new(), total: 0 }
    }

    /// Writes the next record with `fill`, into a new slot while fewer than `capacity`
    /// (at least 1) exist, else over the oldest. Returns the record's heap bytes before
    /// and after (0 before for a new slot).
    pub(crate) fn push(&mut self, capacity: usize, fill: impl FnOnce(&mut R)) -> (usize, usize) {
        let capacity = capacity.max(1);
        let vec_before = self.slots.capacity();
        // A smaller limit than when the ring filled (a new session) drops the excess.
        while self.slots.len() > capacity {
            self.drop_oldest();
        }
        let mut record =
            if self.slots.len() == capacity { self.slots.pop_front().unwrap_or_default() } else { R::default() };
        let before = record.heap_bytes();
        fill(&mut record);
        let after = record.heap_bytes();
        self.slots.push_back(record);
        account(vec_before * size_of::<R>(), self.slots.capacity() * size_of::<R>());
        account(before, after);
        self.total += 1;
        (before, after)
    }

    /// Frees the oldest record (the shared byte budget of the logs); returns its heap
    /// bytes, or `None` when the ring is empty.
    pub(crate) fn drop_oldest(&mut self) -> Option<usize> {
        let bytes = self.slots.pop_front()?.heap_bytes();
        account(bytes, 0);
        Some(bytes)
    }

    /// Records ever pushed.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// The newest record.
    pub(crate) fn newest(&self) -> Option<&R> {
        self.slots.back()
    }

    /// Records newest first, each with its sequence number (the first record ever is 1).
    pub(crate) fn newest_first(&self) -> impl Iterator<Item = (u64, &R)> + '_ {
        self.slots.iter().rev().enumerate().map(move |(back, r)| (self.total - back as u64, r))
    }
}

/// Records a change of held bytes from `before` to `after`.
fn account(before: usize, after: usize) {
    if after > before {
        memory::allocated(after - before);
    } else if before > after {
        memory::freed(before - after);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Text(String);
    impl Record for Text {
        fn heap_bytes(&self) -> usize {
            self.0.capacity()
        }
    }

    fn contents(ring: &Ring<Text>) -> Vec<(u64, String)> {
        ring.newest_first().map(|(seq, t)| (seq, t.0.clone())).collect()
    }

    #[test]
    fn keeps_the_last_records_newest_first() {
        let mut ring = Ring::<Text>::new();
        assert!(ring.newest().is_none());
        for i in 1..=5 {
            ring.push(3, |t| {
                t.0.clear();
                t.0.push_str(&i.to_string());
            });
        }
        assert_eq!(contents(&ring), [(5, "5".into()), (4, "4".into()), (3, "3".into())]);
        assert_eq!(ring.total(), 5);
        assert_eq!(ring.newest().map(|t| t.0.as_str()), Some("5"));
        let mut partial = Ring::<Text>::new();
        partial.push(3, |t| t.0.push('a'));
        partial.push(3, |t| t.0.push('b'));
        assert_eq!(contents(&partial), [(2, "b".into()), (1, "a".into())]);
        assert!(partial.drop_oldest().is_some());
        assert_eq!(contents(&partial), [(2, "b".into())], "the newest keeps its number");
        assert!(partial.drop_oldest().is_some() && partial.drop_oldest().is_none());
        partial.push(3, |t| t.0.push('c'));
        assert_eq!(contents(&partial), [(3, "c".into())]);
    }

    #[test]
    fn a_full_ring_reuses_its_slots() {
        let mut ring = Ring::<Text>::new();
        for _ in 0..4 {
            ring.push(4, |t| t.0.push_str("0123456789"));
        }
        let mut pointers: Vec<*const u8> = ring.slots.iter().map(|t| t.0.as_ptr()).collect();
        pointers.sort();
        for _ in 0..100 {
            ring.push(4, |t| {
                t.0.clear();
                t.0.push_str("abcdefgh");
            });
        }
        let mut after: Vec<*const u8> = ring.slots.iter().map(|t| t.0.as_ptr()).collect();
        after.sort();
        // The process-wide byte count is no witness here: other unit tests allocate
        // through it concurrently (a fresh-clone run failed on it).
        assert_eq!(pointers, after, "no slot's string was reallocated");
    }
}
