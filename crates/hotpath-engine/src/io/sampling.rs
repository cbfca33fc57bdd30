//! Which `io!` operations get their two clock reads: the engine's `sampling` for `io`
//! (a static rate), or under the overhead budget each entry's own rate `2^-shift`,
//! which the budget's thread sets from the entry's operations per second. Counts and
//! bytes are always exact. Under a static rate durations, Avg, percentiles and Rate
//! come from the timed operations (a uniform sample: their mean is the estimate);
//! under the budget, whose rates change during a run, each timed operation is
//! weighted by `2^k` for the `k` it was drawn at (`cell::weighted_start`), as the other
//! instruments' are (`record/weighted.rs`).

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering::Relaxed};

use super::cell::UNTIMED;
use crate::clock;
use crate::record::weighted_tick::{weighted_start, SHADOW_ONLY};
use crate::sampling::{self, Sampled};
use crate::switch;

/// Entry ids the per-thread cells hold (`recorder::IoCells`).
const CAPACITY: usize = 32_768;

/// Each entry's shift under the budget; 0 without one. Zeroed memory, touched only
/// where ids are used.
static SHIFTS: [AtomicU8; CAPACITY] = [const { AtomicU8::new(0) }; CAPACITY];
/// The highest shift each entry had this session (its lowest rate, for the report).
static HIGHEST: [AtomicU8; CAPACITY] = [const { AtomicU8::new(0) }; CAPACITY];
/// One past the highest id whose shift was ever set: a session's start resets those
/// only (reading all 64 KiB cost every `#[hotpath::main]`'s start about 260k
/// instructions and 16 page faults).
static SET_BELOW: AtomicUsize = AtomicUsize::new(0);

/// The configured fraction of timed operations.
pub(crate) fn rate() -> f64 {
    sampling::rate(Sampled::Io)
}

/// Starts an operation of entry `id`: if it is to be timed, the current tick (with the
/// `k` of its weight `2^k` when above 1, `cell::weighted_start`), else [`UNTIMED`], or
/// under the budget's shadow (tests only) the tick marked [`SHADOW_ONLY`]: timed
/// anyway, for the shadow total alone.
#[inline(always)]
pub(crate) fn start(id: u32) -> u64 {
    let shift = SHIFTS.get(id as usize).map_or(0, |s| u32::from(s.load(Relaxed)));
    if let Some(k) = sampling::timed_at(Sampled::Io, shift) {
        let now = clock::now();
        // Ticks 0 and 1 are reserved for "idle" and "untimed".
        if k == 0 {
            now.max(UNTIMED + 1)
        } else {
            weighted_start(now, u64::from(k))
        }
    } else if switch::state() == switch::SHADOW {
        weighted_start(clock::now(), SHADOW_ONLY)
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

/// Sets entry `id`'s timing rate to `2^-shift` (the budget's thread).
pub(crate) fn set_shift(id: usize, shift: u32) {
    let shift = shift.min(u32::from(u8::MAX)) as u8;
    if let (Some(s), Some(h)) = (SHIFTS.get(id), HIGHEST.get(id)) {
        SET_BELOW.fetch_max(id + 1, Relaxed);
        s.store(shift, Relaxed);
        h.fetch_max(shift, Relaxed);
    }
}

/// Entry `id`'s highest shift this session.
pub(crate) fn highest_shift(id: usize) -> u32 {
    HIGHEST.get(id).map_or(0, |s| u32::from(s.load(Relaxed)))
}

/// Entry `id`'s current shift.
pub(crate) fn shift(id: usize) -> u32 {
    SHIFTS.get(id).map_or(0, |s| u32::from(s.load(Relaxed)))
}

/// Every entry timed at the static rate again (a new session).
pub(crate) fn reset_shifts() {
    let set = SET_BELOW.load(Relaxed).min(CAPACITY);
    SHIFTS[..set].iter().chain(&HIGHEST[..set]).filter(|s| s.load(Relaxed) != 0).for_each(|s| s.store(0, Relaxed));
}
