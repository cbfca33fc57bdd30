//! The runtime switch every instrument reads first (one relaxed load), and the count
//! of measurements that could not be recorded. The session flips the switch; the
//! instruments only read it, so nothing here depends on who runs the session.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

static ENABLED: AtomicBool = AtomicBool::new(false);
static DROPPED: AtomicU64 = AtomicU64::new(0);

/// True while a session records.
#[inline(always)]
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Turns recording on or off (the session's start and its final report).
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Release);
}

/// Counts a measurement that could not be recorded.
#[cold]
pub fn count_dropped() {
    DROPPED.fetch_add(1, Ordering::Relaxed);
}

/// Measurements dropped so far.
pub fn dropped() -> u64 {
    DROPPED.load(Ordering::Relaxed)
}
