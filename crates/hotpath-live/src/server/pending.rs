//! The memory the server holds for responses: every response body is a [`Body`],
//! shared (`Arc`) by the render cache and by every connection still sending it, and
//! counted once, from its creation until its last holder lets go, in the process-wide
//! [`PENDING`] budget. A client that does not read therefore holds a reference, not a
//! copy, and many such clients together hold at most the budget's worth of distinct
//! bodies (`rendered` refuses new renders beyond it with a 503).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// Bytes of response bodies held at once beyond which no new body is rendered.
pub(crate) const BUDGET: usize = 16 * 1024 * 1024;

/// The server's response bytes: rendered, cached or waiting for a slow client.
pub(crate) static PENDING: Budget = Budget::new(BUDGET);

/// A peak of bodies held from which, once all are gone, freed memory is given back.
pub(crate) const GIVE_BACK_AFTER: usize = 4 * 1024 * 1024;

/// How many times [`give_back`] ran.
pub(crate) static GIVEN_BACK: AtomicU64 = AtomicU64::new(0);

/// Returns the free memory of the allocator's heaps to the system, after a burst of
/// large responses has been sent or dropped (called by the reactor, once per burst).
///
/// glibc keeps freed memory of its arenas: after 64 stalled `/metrics` clients a
/// program stayed 25 MB above its baseline (251 MB before the budget) with nothing
/// held. `malloc_trim` runs here, on `hp-listen`, never on the program's threads, and
/// only when [`Budget::settled`] says a burst of at least [`GIVE_BACK_AFTER`] bytes is
/// over, not per request. Its cost for the program: each arena's lock is taken in turn
/// while its free pages are released, so a program thread allocating in that arena
/// may wait that long, once per burst. No setting of the program's allocator changes
/// (no `mallopt`). Elsewhere (musl, another global allocator) this does nothing: such
/// allocators return memory by their own policy.
pub(crate) fn give_back() {
    GIVEN_BACK.fetch_add(1, Relaxed);
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases pages of free chunks in glibc's heaps, under
    // the arenas' own locks; no live allocation is touched.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// A count of bytes held, and the limit new work is measured against.
#[derive(Debug)]
pub(crate) struct Budget {
    held: AtomicUsize,
    limit: usize,
    /// The most ever held since [`Budget::settled`] last answered true.
    peak: AtomicUsize,
}

impl Budget {
    pub(crate) const fn new(limit: usize) -> Self {
        Self { held: AtomicUsize::new(0), limit, peak: AtomicUsize::new(0) }
    }

    /// Bytes held now.
    pub(crate) fn held(&self) -> usize {
        self.held.load(Relaxed)
    }

    /// True when the bodies held reach the limit: render nothing new.
    pub(crate) fn full(&self) -> bool {
        self.held() >= self.limit
    }

    fn add(&self, bytes: usize) {
        let now = self.held.fetch_add(bytes, Relaxed) + bytes;
        self.peak.fetch_max(now, Relaxed);
    }

    fn remove(&self, bytes: usize) {
        self.held.fetch_sub(bytes, Relaxed);
    }

    /// True when the bodies held have fallen from at least `high` bytes to none.
    pub(crate) fn due(&self, high: usize) -> bool {
        self.held() == 0 && self.peak.load(Relaxed) >= high
    }

    /// [`due`](Self::due), once: the moment to give freed memory back to the system.
    pub(crate) fn settled(&self, high: usize) -> bool {
        let peak = self.peak.load(Relaxed);
        self.held() == 0 && peak >= high && self.settle_from(peak)
    }

    /// Clears the peak seen as `peak`, unless a body counted since raised it: that
    /// burst is not over, and its peak stays for the next check.
    fn settle_from(&self, peak: usize) -> bool {
        self.peak.compare_exchange(peak, 0, Relaxed, Relaxed).is_ok()
    }
}

/// A response body, counted in its budget while it exists.
#[derive(Debug)]
pub(crate) struct Body {
    bytes: Vec<u8>,
    budget: &'static Budget,
}

impl Body {
    /// A body counted in [`PENDING`].
    pub(crate) fn new(bytes: Vec<u8>) -> Arc<Self> {
        Self::counted(bytes, &PENDING)
    }

    pub(crate) fn counted(bytes: Vec<u8>, budget: &'static Budget) -> Arc<Self> {
        budget.add(bytes.len());
        Arc::new(Self { bytes, budget })
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

impl Drop for Body {
    fn drop(&mut self) {
        self.budget.remove(self.bytes.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_body_counts_once_until_its_last_holder_lets_go() {
        static BUDGET: Budget = Budget::new(100);
        let body = Body::counted(vec![7; 60], &BUDGET);
        let holders: Vec<Arc<Body>> = (0..64).map(|_| Arc::clone(&body)).collect();
        assert_eq!(BUDGET.held(), 60, "64 connections share one copy");
        assert!(!BUDGET.full());
        let second = Body::counted(vec![1; 40], &BUDGET);
        assert!(BUDGET.full());
        drop((body, second));
        assert_eq!(BUDGET.held(), 60, "still held by the connections");
        assert!(!BUDGET.settled(50));
        drop(holders);
        assert_eq!(BUDGET.held(), 0);
        assert!(BUDGET.due(50) && BUDGET.due(50), "due until settled");
        assert!(BUDGET.settled(50), "fell from 100 to nothing");
        assert!(!BUDGET.settled(50), "once");
        let small = Body::counted(vec![0; 10], &BUDGET);
        drop(small);
        assert!(!BUDGET.settled(50), "a peak below `high` is not worth a trim");
    }

    #[test]
    fn a_peak_raised_while_settling_is_kept() {
        static BUDGET: Budget = Budget::new(1000);
        drop(Body::counted(vec![0; 60], &BUDGET));
        // `settled` has seen the peak of 60 when another thread's larger body comes and goes.
        let seen = BUDGET.peak.load(Relaxed);
        drop(Body::counted(vec![0; 90], &BUDGET));
        assert!(!BUDGET.settle_from(seen), "the newer peak is not overwritten");
        assert!(BUDGET.settled(50), "the newer burst still gives back");
        assert!(!BUDGET.settled(50));
    }
}
