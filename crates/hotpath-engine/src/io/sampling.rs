//! Which `io!` operations get their two clock reads (the engine's `sampling`, for
//! `io`). Counts and bytes are always exact; durations, Avg, percentiles and Rate
//! come from the timed operations only.

use super::cell::UNTIMED;
use crate::clock;
use crate::sampling::{self, Sampled};

/// The configured fraction of timed operations.
pub(crate) fn rate() -> f64 {
    sampling::rate(Sampled::Io)
}

/// Starts an operation: the current tick if it is to be timed, else [`UNTIMED`].
#[inline(always)]
pub(crate) fn start() -> u64 {
    if sampling::timed(Sampled::Io) {
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
