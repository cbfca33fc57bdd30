//! The hot path shared by the sync and async wrappers: one call per completed
//! operation, after the wrapped call returned.

use std::io::ErrorKind;

use super::cell::{Kind, UNTIMED};
use super::recorder;
use super::site::IoEntry;
use crate::entries::Entry;
use crate::record::weighted_tick::{duration, SHADOW_ONLY};
use crate::switch;
use crate::timeline;

/// Accounts one operation that began at `start` (a tick, or `UNTIMED`) and ended
/// at `end`. `WouldBlock` and `Interrupted` are retried by the caller, so they are
/// neither an operation nor an error.
#[inline(always)]
pub(crate) fn finish(entry: &Entry<IoEntry>, kind: Kind, start: u64, end: u64, outcome: Result<u64, ErrorKind>) {
    if let Err(ErrorKind::WouldBlock | ErrorKind::Interrupted) = outcome {
        return;
    }
    let recorded = recorder::with_cell(
        entry.id(),
        #[inline(always)]
        |cell| match outcome {
            Ok(bytes) => cell.complete(kind, bytes, start, end),
            Err(_) => cell.fail(kind),
        },
    );
    if recorded.is_none() {
        switch::count_dropped();
    }
    if timeline::on() && start > UNTIMED {
        let (elapsed, k) = duration(start, end);
        if let (Ok(bytes), false) = (outcome, k == SHADOW_ONLY) {
            let op = (kind as u64) << 56 | bytes.min((1 << 56) - 1);
            timeline::slice(timeline::Kind::Io, entry.id(), end.wrapping_sub(elapsed), elapsed, op);
        }
    }
}

/// Counts a new wrapper instance of `entry`.
pub(crate) fn instance(entry: &Entry<IoEntry>) {
    if recorder::with_cell(entry.id(), |cell| cell.add_instance()).is_none() {
        switch::count_dropped();
    }
}

/// The outcome of a `read`/`write`-like call, as bytes or the error's kind.
#[inline(always)]
pub(crate) fn bytes(result: &std::io::Result<usize>) -> Result<u64, ErrorKind> {
    match result {
        Ok(n) => Ok(*n as u64),
        Err(e) => Err(e.kind()),
    }
}

/// The outcome of a `flush`/`shutdown`-like call.
#[inline(always)]
pub(crate) fn unit(result: &std::io::Result<()>) -> Result<u64, ErrorKind> {
    match result {
        Ok(()) => Ok(0),
        Err(e) => Err(e.kind()),
    }
}
