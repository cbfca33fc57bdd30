//! The rate of a hot function site before the budget's first decision. The `hp-budget`
//! thread starts [`FIRST`](super::controller) after the session (a short program never
//! creates it) and only then decides; until it does every site's rate is 1, so a 10 ns
//! function called back to back was timed exactly for those 5 ms and more: 200k timed
//! calls, half of what the profiler cost in a run of 10^8 calls (docs/PERFORMANCE.md).
//!
//! So until the first decision a site's timed call draws its next countdown at
//! [`SHIFT`] once the site has been called, on that thread, more often than exact
//! timing for the budget's share of the first interval can pay for (at 1% and 25 ns a
//! timed call, 2,000 calls). Any rate keeps the estimates unbiased (each timed call
//! weighs `2^k` for the `k` its countdown was drawn with); a site called less stays
//! exact, and the first decision sets every site's rate as before.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// The rate of a site past its provisional threshold: 1/16, the most the collector's
/// own first decision lowers a rate (its `MAX_STEP`).
pub(super) const SHIFT: u32 = 4;
/// The cost of a timed call assumed before this process's calibration (the project's
/// machines measure 25-45 ns).
const ASSUMED_TIMED_NS: f64 = 25.0;

/// Calls of a site on one thread past which it is sampled before the first decision;
/// `u64::MAX` without a budget and once the collector has decided.
static THRESHOLD: AtomicU64 = AtomicU64::new(u64::MAX);

/// A session with a budget of `budget` (a fraction) starts, whose first decision comes
/// about `first` after it; `timed_ns`: a timed call's calibrated cost, if known.
pub(crate) fn open(budget: f64, first: Duration, timed_ns: Option<f64>) {
    let affordable = budget * first.as_nanos() as f64 / timed_ns.unwrap_or(ASSUMED_TIMED_NS);
    THRESHOLD.store(affordable.max(1.0) as u64, Relaxed);
}

/// The collector decided (or the session has no budget): sites' own rates from now on.
/// Returns the threshold if it was in force (a site called at least that often may
/// have run at [`SHIFT`]).
pub(crate) fn close() -> Option<u64> {
    Some(THRESHOLD.swap(u64::MAX, Relaxed)).filter(|&t| t != u64::MAX)
}

/// The shift for the next countdown of a site whose own is `shift`, called `calls()`
/// times on this thread so far (read only while the threshold is in force).
pub(crate) fn shift(shift: u32, calls: impl FnOnce() -> u64) -> u32 {
    let threshold = THRESHOLD.load(Relaxed);
    if threshold != u64::MAX && calls() >= threshold {
        shift.max(SHIFT)
    } else {
        shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hot_site_is_sampled_until_the_first_decision_and_a_cold_one_stays_exact() {
        // 1% of 5 ms at 25 ns a timed call: 2,000 calls.
        open(0.01, Duration::from_millis(5), Some(25.0));
        assert_eq!(shift(0, || 1_999), 0, "under the threshold: exact");
        assert_eq!(shift(0, || 2_000), SHIFT);
        assert_eq!(shift(9, || 5_000), 9, "a site's own lower rate stands");
        assert_eq!(close(), Some(2_000), "the first decision learns the threshold");
        assert_eq!(shift(0, || u64::MAX - 1), 0, "decided: the site's own rate");
        assert_eq!(close(), None);
    }
}
