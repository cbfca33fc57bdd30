//! The runtime switch every instrument reads first (one relaxed load), and the count
//! of measurements that could not be recorded. The session flips the switch; the
//! instruments only read it, so nothing here depends on who runs the session.
//!
//! The switch is one byte, so that `#[measure]` learns with the same single load
//! whether recording is on and whether its calls are time-sampled. Whether events also
//! go to the timeline is a second byte, read only where an event is written (at the
//! end of a call), so that a call's start is the same with the timeline on or off.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::OnceLock;

/// Recording is off.
pub const OFF: u8 = 0;
/// Recording is on, every function call timed.
pub const ON: u8 = 1;
/// Recording is on and function calls are time-sampled.
pub const SAMPLED: u8 = 2;
/// Recording is on under an overhead budget: each function site's timing rate is its
/// own (`FnSite::shift`), lowered by the budget's collector.
pub const BUDGET: u8 = 3;
/// As [`BUDGET`], and calls left untimed are timed anyway into a shadow total that
/// only tests read (the truth the estimates are checked against).
pub const SHADOW: u8 = 4;

/// A word holding one of the states: `#[measure]` compares it whole (a byte compared
/// twice was widened between the two compares, one instruction more per call).
static STATE: AtomicU32 = AtomicU32::new(OFF as u32);
static FUNCTION_SAMPLING: AtomicBool = AtomicBool::new(false);
/// [`ON`], or [`BUDGET`] / [`SHADOW`] while an overhead budget governs function timing.
static TIMED_MODE: AtomicU8 = AtomicU8::new(ON);
/// The timeline's setting, and whether it records now (set and recording on).
static TRACING: AtomicBool = AtomicBool::new(false);
static TRACED: AtomicBool = AtomicBool::new(false);
/// Told when [`traced`] changes (the function recorders, which keep their own copy).
static TRACED_CHANGED: OnceLock<fn()> = OnceLock::new();
static DROPPED: AtomicU64 = AtomicU64::new(0);

/// True while a session records.
#[inline(always)]
pub fn enabled() -> bool {
    STATE.load(Ordering::Relaxed) != u32::from(OFF)
}

/// [`OFF`], [`ON`], [`SAMPLED`], [`BUDGET`] or [`SHADOW`].
#[inline(always)]
pub fn state() -> u8 {
    STATE.load(Ordering::Relaxed) as u8
}

/// [`state`] as the word it is stored in.
#[inline(always)]
pub(crate) fn state_word() -> u32 {
    STATE.load(Ordering::Relaxed)
}

/// Turns recording on or off (the session's start and its final report).
pub fn set_enabled(on: bool) {
    let state = match (on, FUNCTION_SAMPLING.load(Ordering::Relaxed)) {
        (false, _) => OFF,
        (true, false) => TIMED_MODE.load(Ordering::Relaxed),
        (true, true) => SAMPLED,
    };
    let traced = on && TRACING.load(Ordering::Relaxed);
    if TRACED.swap(traced, Ordering::Relaxed) != traced {
        if let Some(changed) = TRACED_CHANGED.get() {
            changed();
        }
    }
    STATE.store(u32::from(state), Ordering::Release);
}

/// Sets what is told when [`traced`] changes (once; later calls are ignored).
pub(crate) fn on_traced_change(changed: fn()) {
    let _ = TRACED_CHANGED.set(changed);
}

/// Whether the timeline records while recording is on (its settings).
pub(crate) fn set_tracing(on: bool) {
    TRACING.store(on, Ordering::Relaxed);
    if enabled() {
        set_enabled(true);
    }
}

/// Whether the timeline is configured on, recording or not.
pub(crate) fn tracing() -> bool {
    TRACING.load(Ordering::Relaxed)
}

/// True while events go to the timeline: one relaxed load.
#[inline(always)]
pub(crate) fn traced() -> bool {
    TRACED.load(Ordering::Relaxed)
}

/// Whether function calls are time-sampled (set with the functions' rate).
pub(crate) fn set_function_sampling(sampled: bool) {
    FUNCTION_SAMPLING.store(sampled, Ordering::Relaxed);
    if enabled() {
        set_enabled(true);
    }
}

/// Whether function timing follows the overhead budget's per-site rates (`shadow`:
/// with the tests' shadow totals). A static functions rate, when set, wins.
pub(crate) fn set_budgeted(on: bool, shadow: bool) {
    let mode = match (on, shadow) {
        (false, _) => ON,
        (true, false) => BUDGET,
        (true, true) => SHADOW,
    };
    TIMED_MODE.store(mode, Ordering::Relaxed);
    if enabled() {
        set_enabled(true);
    }
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
