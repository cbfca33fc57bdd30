//! What a frame consumes: time always, allocations with the `alloc` feature.
//!
//! A frame reads [`Usage::now`] (clock ticks and the thread's cumulative allocation
//! counters) at entry and exit; the difference is its inclusive usage. Exclusive
//! usage subtracts what nested frames reported through the thread recorder's
//! `children` accumulator.

/// Ticks and, with `alloc`, bytes and allocations: cumulative readings or differences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    pub(crate) ticks: u64,
    #[cfg(feature = "alloc")]
    pub(crate) bytes: u64,
    #[cfg(feature = "alloc")]
    pub(crate) allocs: u64,
}

impl Usage {
    /// The current reading on this thread.
    #[inline(always)]
    pub(crate) fn now() -> Self {
        #[cfg(feature = "alloc")]
        {
            let (bytes, allocs) = crate::alloc_counters::thread_allocated();
            Self { ticks: crate::clock::now(), bytes, allocs }
        }
        #[cfg(not(feature = "alloc"))]
        Self { ticks: crate::clock::now() }
    }

    /// The usage of an interval that ends at reading `self` and started at reading
    /// `start`. Ticks that come out negative are counted (see `clock::elapsed`) and
    /// measure 0; the thread's allocation counters never go back.
    #[inline(always)]
    pub(crate) fn elapsed_since(self, start: Self) -> Self {
        Self {
            ticks: crate::clock::elapsed(start.ticks, self.ticks),
            #[cfg(feature = "alloc")]
            bytes: self.bytes.saturating_sub(start.bytes),
            #[cfg(feature = "alloc")]
            allocs: self.allocs.saturating_sub(start.allocs),
        }
    }

    /// `self - earlier`, each component saturating at zero (exclusive usage: an
    /// inclusive usage minus that of nested frames).
    #[inline(always)]
    pub(crate) fn since(self, earlier: Self) -> Self {
        Self {
            ticks: self.ticks.saturating_sub(earlier.ticks),
            #[cfg(feature = "alloc")]
            bytes: self.bytes.saturating_sub(earlier.bytes),
            #[cfg(feature = "alloc")]
            allocs: self.allocs.saturating_sub(earlier.allocs),
        }
    }

    /// Component-wise sum.
    #[inline(always)]
    pub(crate) fn plus(self, other: Self) -> Self {
        Self {
            ticks: self.ticks.wrapping_add(other.ticks),
            #[cfg(feature = "alloc")]
            bytes: self.bytes.wrapping_add(other.bytes),
            #[cfg(feature = "alloc")]
            allocs: self.allocs.wrapping_add(other.allocs),
        }
    }
}
