//! The profiler's clock: raw time-stamp counter ticks where the TSC is invariant,
//! otherwise nanoseconds from `Instant`.
//!
//! Ticks are stored as-is on the hot path; conversion to nanoseconds happens when a
//! snapshot is taken, from the ratio of TSC ticks to `Instant` time elapsed since
//! [`init`]. That keeps start-up free of a calibration sleep and makes the ratio more
//! precise the longer the program runs. A histogram's relative error is unchanged by
//! the linear conversion.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

static USE_TSC: AtomicBool = AtomicBool::new(false);
static ANCHOR: OnceLock<Anchor> = OnceLock::new();

struct Anchor {
    instant: Instant,
    ticks: u64,
}

/// Reads the current time in ticks. Two of these bracket every measured call.
#[inline(always)]
pub(crate) fn now() -> u64 {
    #[cfg(target_arch = "x86_64")]
    if USE_TSC.load(Relaxed) {
        // SAFETY: RDTSC exists on every x86_64 CPU and has no preconditions.
        return unsafe { core::arch::x86_64::_rdtsc() };
    }
    fallback_now()
}

#[inline(never)]
fn fallback_now() -> u64 {
    ANCHOR.get().map_or(0, |a| a.instant.elapsed().as_nanos() as u64)
}

/// Chooses the clock source once per process; later calls do nothing. With
/// `allow_tsc` false (`HOTPATH_CLOCK=monotonic`) the TSC is never used.
pub(crate) fn init(allow_tsc: bool) {
    ANCHOR.get_or_init(|| {
        let tsc = allow_tsc && invariant_tsc();
        USE_TSC.store(tsc, Relaxed);
        Anchor { instant: Instant::now(), ticks: now() }
    });
}

/// Name of the clock source, for the report.
pub fn source() -> &'static str {
    if USE_TSC.load(Relaxed) {
        "tsc"
    } else {
        "monotonic"
    }
}

/// Nanoseconds per tick, measured against `Instant` since [`init`]. Waits until at
/// least 1 ms has passed so that the ratio is accurate to about 1e-4.
pub fn ns_per_tick() -> f64 {
    let Some(anchor) = ANCHOR.get() else { return 1.0 };
    if !USE_TSC.load(Relaxed) {
        return 1.0;
    }
    while anchor.instant.elapsed() < Duration::from_millis(1) {
        std::hint::spin_loop();
    }
    let ticks = now().saturating_sub(anchor.ticks).max(1);
    anchor.instant.elapsed().as_nanos() as f64 / ticks as f64
}

/// About `ms` milliseconds in ticks, without waiting: exact for the monotonic clock; for
/// the TSC, scaled from the ticks counted since [`init`] once a millisecond has passed,
/// and a 4 GHz guess before that (so the first interval of a sampler may run short).
pub(crate) fn ticks_in_ms(ms: u64) -> u64 {
    let Some(anchor) = ANCHOR.get() else { return ms * 1_000_000 };
    if !USE_TSC.load(Relaxed) {
        return ms * 1_000_000;
    }
    let elapsed = anchor.instant.elapsed().as_nanos() as u64;
    if elapsed < 1_000_000 {
        return ms * 4_000_000;
    }
    let ticks = now().saturating_sub(anchor.ticks);
    (ticks as f64 / elapsed as f64 * ms as f64 * 1_000_000.0) as u64
}

/// Converts a tick count with a ratio from [`ns_per_tick`].
#[inline]
pub(crate) fn to_ns(ticks: u64, ratio: f64) -> u64 {
    (ticks as f64 * ratio).round() as u64
}

#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)] // __cpuid became safe to call in Rust 1.94
fn invariant_tsc() -> bool {
    use core::arch::x86_64::__cpuid;
    // SAFETY: CPUID is available on every x86_64 CPU.
    let max_extended = unsafe { __cpuid(0x8000_0000) }.eax;
    // CPUID.80000007H:EDX[8] is "invariant TSC": constant rate, runs in deep sleep states.
    max_extended >= 0x8000_0007 && (unsafe { __cpuid(0x8000_0007) }.edx & (1 << 8)) != 0
}

#[cfg(not(target_arch = "x86_64"))]
fn invariant_tsc() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_advance_and_convert() {
        init(true);
        let a = now();
        std::thread::sleep(Duration::from_millis(2));
        let b = now();
        assert!(b > a);
        let ns = to_ns(b - a, ns_per_tick());
        assert!(ns >= 2_000_000, "slept 2 ms, measured {ns} ns");
    }
}
