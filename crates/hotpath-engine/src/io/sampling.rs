//! Time sampling (`HOTPATH_TIME_SAMPLING_RATE`): which operations get their two
//! clock reads. Counts and bytes are always exact; durations, Avg, percentiles and
//! Rate come from the timed operations only.
//!
//! The decision is a per-thread xorshift draw against a threshold, so sampling does
//! not alias with periodic traffic (a request/response loop alternating reads and
//! writes) the way "every Nth operation" would, and costs no shared state.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::cell::UNTIMED;
use crate::clock;

/// An operation is timed when a uniform 64-bit draw is below this; `u64::MAX`
/// times everything (rate 1, the default), 0 nothing (count-only mode).
static THRESHOLD: AtomicU64 = AtomicU64::new(u64::MAX);
/// The configured rate as `f64` bits, for the report.
static RATE: AtomicU64 = AtomicU64::new(0x3FF0_0000_0000_0000); // 1.0

thread_local! {
    // Const-initialized without a destructor: one TLS load, never fails.
    static STATE: Cell<u64> = const { Cell::new(0x9E37_79B9_7F4A_7C15) };
}

/// Sets the fraction of operations to time, clamped to 0..=1.
pub(crate) fn set_rate(rate: f64) {
    let rate = if rate.is_nan() { 1.0 } else { rate.clamp(0.0, 1.0) };
    let threshold = if rate >= 1.0 { u64::MAX } else { (rate * 18_446_744_073_709_551_616.0) as u64 };
    THRESHOLD.store(threshold, Relaxed);
    RATE.store(rate.to_bits(), Relaxed);
}

/// The configured fraction of timed operations.
pub(crate) fn rate() -> f64 {
    f64::from_bits(RATE.load(Relaxed))
}

/// Starts an operation: the current tick if it is to be timed, else [`UNTIMED`].
#[inline(always)]
pub(crate) fn start() -> u64 {
    let threshold = THRESHOLD.load(Relaxed);
    if threshold == u64::MAX || (threshold != 0 && draw() < threshold) {
        // Ticks 0 and 1 are reserved for "idle" and "untimed".
        clock::now().max(UNTIMED + 1)
    } else {
        UNTIMED
    }
}

/// The end tick of an operation begun with [`start`] (no clock read if untimed).
#[inline(always)]
pub(crate) fn end(start: u64) -> u64 {
    if start > UNTIMED {
        clock::now()
    } else {
        0
    }
}

/// xorshift64* on this thread's state.
#[inline]
fn draw() -> u64 {
    STATE.with(|s| {
        let mut x = s.get();
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        s.set(x);
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_hit_the_configured_fraction() {
        let threshold = (0.25 * 18_446_744_073_709_551_616.0) as u64;
        let hits = (0..100_000).filter(|_| draw() < threshold).count();
        assert!((23_000..27_000).contains(&hits), "{hits} of 100,000 below a 25% threshold");
    }
}
