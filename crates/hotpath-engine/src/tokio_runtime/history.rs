//! A fixed-size ring of recent samples of one runtime: the trend the report and live
//! views show, and the windows the flags are evaluated over. Allocated once when the
//! runtime is registered; sampling never allocates.

/// Samples kept per runtime.
pub(crate) const CAPACITY: usize = 128;

/// Runtime-wide values of one sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Point {
    /// Nanoseconds after registration.
    pub(crate) at_ns: u64,
    pub(crate) global_queue_depth: usize,
    pub(crate) alive_tasks: usize,
    /// Mean busy share of the workers since the previous point, in 0..=1.
    pub(crate) busy_share: f64,
}

/// The ring: points plus, for each point, every worker's cumulative busy time.
pub(crate) struct History {
    workers: usize,
    points: Vec<Point>,
    busy_ns: Vec<u64>,
    /// Slot the next point goes to.
    head: usize,
    len: usize,
}

impl History {
    pub(crate) fn new(workers: usize) -> Self {
        Self {
            workers,
            points: vec![Point::default(); CAPACITY],
            busy_ns: vec![0; CAPACITY * workers],
            head: 0,
            len: 0,
        }
    }

    /// Appends a point, overwriting the oldest when full. `busy_ns` holds one
    /// cumulative value per worker.
    pub(crate) fn push(&mut self, point: Point, busy_ns: impl Iterator<Item = u64>) {
        self.points[self.head] = point;
        let slot = &mut self.busy_ns[self.head * self.workers..(self.head + 1) * self.workers];
        for (dst, src) in slot.iter_mut().zip(busy_ns) {
            *dst = src;
        }
        self.head = (self.head + 1) % CAPACITY;
        self.len = (self.len + 1).min(CAPACITY);
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The point `age` samples before the newest (0 = newest), with its per-worker busy times.
    pub(crate) fn get(&self, age: usize) -> Option<(&Point, &[u64])> {
        if age >= self.len {
            return None;
        }
        let slot = (self.head + CAPACITY - 1 - age) % CAPACITY;
        Some((&self.points[slot], &self.busy_ns[slot * self.workers..(slot + 1) * self.workers]))
    }

    /// Every point, oldest first.
    pub(crate) fn points(&self) -> impl Iterator<Item = &Point> {
        (0..self.len).rev().filter_map(|age| self.get(age).map(|(p, _)| p))
    }

    /// Heap bytes held (for the profiler's own memory accounting).
    pub(crate) fn bytes(&self) -> usize {
        self.points.capacity() * std::mem::size_of::<Point>() + self.busy_ns.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(at_ns: u64) -> Point {
        Point { at_ns, ..Point::default() }
    }

    #[test]
    fn keeps_the_newest_capacity_points_in_order() {
        let mut h = History::new(2);
        assert!(h.get(0).is_none());
        for i in 0..(CAPACITY as u64 + 10) {
            h.push(point(i), [i, i * 10].into_iter());
        }
        assert_eq!(h.len(), CAPACITY);
        let (newest, busy) = h.get(0).unwrap();
        assert_eq!((newest.at_ns, busy), (CAPACITY as u64 + 9, &[CAPACITY as u64 + 9, (CAPACITY as u64 + 9) * 10][..]));
        assert_eq!(h.get(CAPACITY - 1).unwrap().0.at_ns, 10);
        assert!(h.get(CAPACITY).is_none());
        let all: Vec<u64> = h.points().map(|p| p.at_ns).collect();
        assert_eq!(all, (10..CAPACITY as u64 + 10).collect::<Vec<_>>());
    }

    #[test]
    fn partial_ring_reads_back_what_was_pushed() {
        let mut h = History::new(1);
        h.push(point(5), [50].into_iter());
        h.push(point(6), [60].into_iter());
        assert_eq!(h.get(1).unwrap().1, &[50]);
        assert_eq!(h.points().map(|p| p.at_ns).collect::<Vec<_>>(), [5, 6]);
        assert_eq!(h.bytes(), CAPACITY * (std::mem::size_of::<Point>() + 8));
    }
}
