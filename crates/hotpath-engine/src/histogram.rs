//! Log-linear histograms with at most 0.79% relative error.
//!
//! Values below 128 have exact buckets. Above, each power-of-two range ("octave")
//! is split into 64 equal buckets, so a bucket is at most 1/64 of its lower bound
//! wide and its midpoint is within 1/128 of any value in it. Octaves are allocated
//! on first use (a cold path), so a site whose durations span a few octaves costs a
//! few KiB per thread. Merging adds bucket counts, which is exact.

use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

use crate::memory;

const SUB_BITS: u32 = 6;
const SUBS: usize = 1 << SUB_BITS;
/// Octave 0 holds 0..64; octave k ≥ 1 holds [2^(k+5), 2^(k+6)). 59 octaves cover u64.
const OCTAVES: usize = 59;

type Octave = [AtomicU64; SUBS];

/// Octave and bucket of a value: octave `k` is the bit length of `v >> 6`, and the
/// bucket the 6 bits below the top one (all of `v` below 128). The octave is the
/// highest set bit of `v` with its low 6 bits forced on, never of zero: one bit scan
/// without a zero check (this runs on every recorded duration).
#[inline(always)]
fn index(v: u64) -> (usize, usize) {
    let k = (v | (SUBS as u64 - 1)).ilog2() - (SUB_BITS - 1);
    let shift = k.saturating_sub(1);
    (k as usize, ((v >> shift) as usize) & (SUBS - 1))
}

/// Lowest value of a bucket, and its width.
fn bucket_bounds(k: usize, sub: usize) -> (u64, u64) {
    if k == 0 {
        (sub as u64, 1)
    } else {
        (((SUBS + sub) as u64) << (k - 1), 1 << (k - 1))
    }
}

/// A histogram written by one thread and read by the collector.
///
/// The owner increments with relaxed load + store (no read-modify-write, so no
/// locked instruction); readers see each counter whole, possibly slightly behind.
pub(crate) struct LocalHistogram {
    octaves: [AtomicPtr<Octave>; OCTAVES],
}

impl LocalHistogram {
    pub(crate) const fn new() -> Self {
        Self { octaves: [const { AtomicPtr::new(ptr::null_mut()) }; OCTAVES] }
    }

    /// Counts one value. Only the owning thread may call this.
    #[inline(always)]
    pub(crate) fn record(&self, v: u64) {
        let (k, sub) = index(v);
        let mut octave = self.octaves[k].load(Ordering::Relaxed);
        if octave.is_null() {
            octave = self.grow(k);
        }
        // SAFETY: non-null octave pointers point to live octaves until `drop`.
        let bucket = unsafe { &(*octave)[sub] };
        bucket.store(bucket.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    /// Counts `n` occurrences of `v` (a call that stands for `n` under sampling).
    #[inline]
    pub(crate) fn record_n(&self, v: u64, n: u64) {
        let (k, sub) = index(v);
        let mut octave = self.octaves[k].load(Ordering::Relaxed);
        if octave.is_null() {
            octave = self.grow(k);
        }
        // SAFETY: non-null octave pointers point to live octaves until `drop`.
        let bucket = unsafe { &(*octave)[sub] };
        bucket.store(bucket.load(Ordering::Relaxed) + n, Ordering::Relaxed);
    }

    /// Zeroes every count (a new session). Racing an owner's `record` loses at most
    /// that one value; octaves stay allocated.
    pub(crate) fn reset(&self) {
        for slot in &self.octaves {
            let octave = slot.load(Ordering::Acquire);
            // SAFETY: a non-null octave pointer points to a live octave until `drop`,
            // which needs `&mut self`.
            if let Some(octave) = unsafe { octave.as_ref() } {
                octave.iter().for_each(|b| b.store(0, Ordering::Relaxed));
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&self, k: usize) -> *mut Octave {
        let octave = memory::untracked(|| Box::into_raw(Box::new([const { AtomicU64::new(0) }; SUBS])));
        memory::allocated(std::mem::size_of::<Octave>());
        // Release publishes the zeroed buckets to a collector that loads with Acquire.
        self.octaves[k].store(octave, Ordering::Release);
        octave
    }

    /// Calls `f(octave, bucket, count)` for every non-empty bucket.
    fn for_each(&self, mut f: impl FnMut(usize, usize, u64)) {
        for (k, slot) in self.octaves.iter().enumerate() {
            let octave = slot.load(Ordering::Acquire);
            if octave.is_null() {
                continue;
            }
            // SAFETY: as in `record`; the owner outlives every reader (see `thread`).
            for (sub, bucket) in unsafe { &*octave }.iter().enumerate() {
                let n = bucket.load(Ordering::Relaxed);
                if n > 0 {
                    f(k, sub, n);
                }
            }
        }
    }
}

impl Drop for LocalHistogram {
    fn drop(&mut self) {
        for slot in &mut self.octaves {
            let octave = *slot.get_mut();
            if !octave.is_null() {
                // SAFETY: allocated by `grow` with `Box::new`, freed once here.
                drop(unsafe { Box::from_raw(octave) });
                memory::freed(std::mem::size_of::<Octave>());
            }
        }
    }
}

/// A merged, single-owner histogram used by snapshots and by retired threads.
#[derive(Clone, Default)]
pub(crate) struct Histogram {
    octaves: Vec<Option<Box<[u64; SUBS]>>>,
    count: u64,
}

impl Histogram {
    /// Adds another thread's live counts.
    pub(crate) fn merge_local(&mut self, local: &LocalHistogram) {
        local.for_each(|k, sub, n| self.add(k, sub, n));
    }

    /// Adds another merged histogram.
    pub(crate) fn merge(&mut self, other: &Histogram) {
        for (k, octave) in other.octaves.iter().enumerate() {
            if let Some(octave) = octave {
                for (sub, &n) in octave.iter().enumerate().filter(|(_, n)| **n > 0) {
                    self.add(k, sub, n);
                }
            }
        }
    }

    #[cfg(test)]
    pub(crate) fn record(&mut self, v: u64) {
        self.record_n(v, 1);
    }

    /// Counts `n` occurrences of `v`.
    pub(crate) fn record_n(&mut self, v: u64, n: u64) {
        if n > 0 {
            let (k, sub) = index(v);
            self.add(k, sub, n);
        }
    }

    fn add(&mut self, k: usize, sub: usize, n: u64) {
        if self.octaves.len() <= k {
            self.octaves.resize_with(k + 1, || None);
        }
        let octave = self.octaves[k].get_or_insert_with(|| Box::new([0; SUBS]));
        octave[sub] += n;
        self.count += n;
    }

    /// Number of values counted.
    #[cfg(test)]
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// The nearest-rank `p`-th percentile (0..=100), as the midpoint of its bucket.
    pub(crate) fn percentile(&self, p: f64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let rank = ((p / 100.0) * self.count as f64).ceil().clamp(1.0, self.count as f64) as u64;
        let mut seen = 0;
        for (k, octave) in self.octaves.iter().enumerate() {
            let Some(octave) = octave else { continue };
            for (sub, &n) in octave.iter().enumerate() {
                seen += n;
                if seen >= rank {
                    let (low, width) = bucket_bounds(k, sub);
                    return low + width / 2;
                }
            }
        }
        0
    }

    /// Cumulative counts at ascending `bounds`: values whose bucket midpoint is at most
    /// the bound (the same 0.8% approximation as [`percentile`](Self::percentile)).
    pub(crate) fn cumulative(&self, bounds: &[u64]) -> Vec<u64> {
        let mut out = vec![self.count; bounds.len()];
        let mut next = 0;
        let mut seen = 0;
        for (k, octave) in self.octaves.iter().enumerate() {
            let Some(octave) = octave else { continue };
            for (sub, &n) in octave.iter().enumerate().filter(|(_, n)| **n > 0) {
                let (low, width) = bucket_bounds(k, sub);
                let mid = low + width / 2;
                while next < bounds.len() && mid > bounds[next] {
                    out[next] = seen;
                    next += 1;
                }
                seen += n;
            }
        }
        out
    }

    /// The counts as `(value, count)` at each non-empty bucket's midpoint, ascending
    /// (a value below 128 is exact).
    pub(crate) fn midpoints(&self) -> impl Iterator<Item = (f64, u64)> + '_ {
        self.octaves.iter().enumerate().filter_map(|(k, o)| o.as_ref().map(|o| (k, o))).flat_map(|(k, octave)| {
            octave.iter().enumerate().filter(|(_, n)| **n > 0).map(move |(sub, &n)| {
                let (low, width) = bucket_bounds(k, sub);
                (low as f64 + (width / 2) as f64, n)
            })
        })
    }

    /// Bytes held, for memory accounting of retired totals.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.octaves.capacity() * std::mem::size_of::<Option<Box<[u64; SUBS]>>>()
            + self.octaves.iter().flatten().count() * std::mem::size_of::<[u64; SUBS]>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn buckets_tile_the_range() {
        let mut expected_low = 0u64;
        for k in 0..OCTAVES {
            for sub in 0..SUBS {
                let (low, width) = bucket_bounds(k, sub);
                if k == 0 && sub < SUBS {
                    assert_eq!(low, sub as u64);
                }
                assert_eq!(low, expected_low, "bucket ({k},{sub})");
                assert_eq!(index(low), (k, sub));
                assert_eq!(index(low + (width - 1)), (k, sub));
                expected_low = low.wrapping_add(width);
            }
        }
        assert_eq!(expected_low, 0, "the last bucket ends at u64::MAX");
        assert_eq!(index(u64::MAX).0, OCTAVES - 1);
    }

    proptest! {
        /// The bit-scan form of `index` is the definition: octave = bit length of
        /// `v >> 6`, bucket = the 6 bits below the top one (shifted by octave − 1).
        #[test]
        fn index_is_the_definition(v in any::<u64>(), small in 0u64..100_000) {
            for v in [v, small, v >> (v % 64)] {
                let k = 64 - (v >> SUB_BITS).leading_zeros();
                let shift = k.saturating_sub(1);
                prop_assert_eq!(index(v), (k as usize, ((v >> shift) as usize) & (SUBS - 1)));
            }
        }
    }

    #[test]
    fn cumulative_counts_at_bounds() {
        let mut h = Histogram::default();
        for v in [5, 50, 500, 5_000, 5_000, 50_000] {
            h.record(v);
        }
        assert_eq!(h.cumulative(&[0, 10, 1_000, 10_000, 100_000]), [0, 1, 3, 5, 6]);
        assert_eq!(h.cumulative(&[]), Vec::<u64>::new());
        assert_eq!(Histogram::default().cumulative(&[1, 2]), [0, 0]);
    }

    #[test]
    fn local_histogram_records_merges_and_frees() {
        let local = LocalHistogram::new();
        let values = [0u64, 1, 63, 64, 127, 128, 5_000, 1 << 40, u64::MAX];
        std::thread::scope(|s| {
            // A collector merging while the owner records.
            s.spawn(|| Histogram::default().merge_local(&local));
            values.iter().for_each(|&v| local.record(v));
        });
        let mut merged = Histogram::default();
        merged.merge_local(&local);
        assert_eq!(merged.count(), values.len() as u64);
        assert_eq!(merged.percentile(0.0), 0);
        assert!(merged.percentile(100.0) > u64::MAX / 100 * 99);
        drop(local);
    }

    fn ground_truth(sorted: &[u64], p: f64) -> u64 {
        let rank = ((p / 100.0) * sorted.len() as f64).ceil().clamp(1.0, sorted.len() as f64) as usize;
        sorted[rank - 1]
    }

    fn assert_close(estimate: u64, truth: u64) {
        let error = estimate.abs_diff(truth) as f64 / truth.max(1) as f64;
        assert!(error <= 0.01, "estimate {estimate} vs truth {truth}: {:.3}% error", error * 100.0);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn percentiles_within_one_percent(
            values in prop::collection::vec(prop_oneof![0u64..200, 0u64..1_000_000, 0u64..u64::MAX / 2], 1..2000),
            p in 0.0f64..=100.0,
        ) {
            let mut h = Histogram::default();
            values.iter().for_each(|v| h.record(*v));
            let mut sorted = values.clone();
            sorted.sort_unstable();
            assert_close(h.percentile(p), ground_truth(&sorted, p));
        }

        #[test]
        fn merge_across_threads_is_exact(
            parts in prop::collection::vec(prop::collection::vec(1u64..10_000_000, 0..300), 1..8),
            p in prop::sample::select(vec![50.0, 90.0, 95.0, 99.0, 99.9, 100.0]),
        ) {
            // Each part is recorded by its own thread into a LocalHistogram, as the engine does.
            let locals: Vec<LocalHistogram> = std::thread::scope(|s| {
                let handles: Vec<_> = parts.iter().map(|part| s.spawn(move || {
                    let local = LocalHistogram::new();
                    part.iter().for_each(|v| local.record(*v));
                    local
                })).collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            let mut merged = Histogram::default();
            locals.iter().for_each(|l| merged.merge_local(l));
            let mut single = Histogram::default();
            parts.iter().flatten().for_each(|v| single.record(*v));
            // Exact: bucket for bucket the same as one histogram of all values.
            prop_assert_eq!(merged.count(), single.count());
            prop_assert_eq!(merged.percentile(p), single.percentile(p));
            let mut merged_twice = Histogram::default();
            merged_twice.merge(&merged);
            prop_assert_eq!(merged_twice.percentile(p), single.percentile(p));
            let mut sorted: Vec<u64> = parts.concat();
            if !sorted.is_empty() {
                sorted.sort_unstable();
                assert_close(merged.percentile(p), ground_truth(&sorted, p));
            }
        }
    }
}
