//! A bounded ring of log records: slots are created until the limit, then the oldest
//! is overwritten in place, so its strings' capacity is reused (no allocation in steady
//! state). The caller holds the entry's lock; the ring counts what it holds in
//! `memory::profiler_bytes`.

use crate::memory;

/// A record that knows its heap footprint (string capacities), for memory accounting.
pub(crate) trait Record: Default {
    fn heap_bytes(&self) -> usize;
}

/// The last `capacity` records, and how many were ever written.
pub(crate) struct Ring<R> {
    slots: Vec<R>,
    /// Index of the slot the next record overwrites once the ring is full.
    next: usize,
    total: u64,
}

impl<R: Record> Ring<R> {
    pub(crate) const fn new() -> Self {
        Self { slots: Vec::new(), next: 0, total: 0 }
    }

    /// Writes the next record with `fill`, into a new slot while fewer than `capacity`
    /// (at least 1) exist, else over the oldest.
    pub(crate) fn push(&mut self, capacity: usize, fill: impl FnOnce(&mut R)) {
        let capacity = capacity.max(1);
        if self.slots.len() < capacity {
            let vec_before = self.slots.capacity();
            self.slots.push(R::default());
            self.next = self.slots.len() % capacity;
            let slot = self.slots.len() - 1;
            fill(&mut self.slots[slot]);
            account(vec_before * size_of::<R>(), self.slots.capacity() * size_of::<R>());
            account(0, self.slots[slot].heap_bytes());
        } else {
            // A smaller limit than when the ring filled (a new session) keeps the old slots.
            let slot = self.next.min(self.slots.len() - 1);
            let before = self.slots[slot].heap_bytes();
            fill(&mut self.slots[slot]);
            account(before, self.slots[slot].heap_bytes());
            self.next = (slot + 1) % self.slots.len();
        }
        self.total += 1;
    }

    /// Records ever pushed.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// The newest record.
    pub(crate) fn newest(&self) -> Option<&R> {
        self.newest_first().next().map(|(_, r)| r)
    }

    /// Records newest first, each with its sequence number (the first record ever is 1).
    pub(crate) fn newest_first(&self) -> impl Iterator<Item = (u64, &R)> + '_ {
        let len = self.slots.len();
        let newest = if len == 0 { 0 } else { (self.next + len - 1) % len };
        (0..len).map(move |back| {
            let index = (newest + len - back) % len;
            (self.total - back as u64, &self.slots[index])
        })
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
    }

    #[test]
    fn a_full_ring_reuses_its_slots() {
        let mut ring = Ring::<Text>::new();
        for _ in 0..4 {
            ring.push(4, |t| t.0.push_str("0123456789"));
        }
        let before = memory::profiler_bytes();
        let pointers: Vec<*const u8> = ring.slots.iter().map(|t| t.0.as_ptr()).collect();
        for _ in 0..100 {
            ring.push(4, |t| {
                t.0.clear();
                t.0.push_str("abcdefgh");
            });
        }
        let after: Vec<*const u8> = ring.slots.iter().map(|t| t.0.as_ptr()).collect();
        assert_eq!(pointers, after, "no slot's string was reallocated");
        assert!(memory::profiler_bytes() <= before + 1024, "other tests may allocate concurrently");
    }
}
