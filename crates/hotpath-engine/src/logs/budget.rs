//! The byte budget shared by every text log (`dbg!`, `val!`, `log = true`): the heap
//! bytes their records hold (text, thread name, key) are counted together, and past
//! [`LOG_BYTES_BUDGET`] the oldest record of each log is dropped in turn until they
//! are back under 7/8 of it. Without it the per-log limits alone allow
//! (dbg! sites + entries limit) × logs limit × 4 × max len bytes: 300 MB for 1000
//! keys at the defaults.
//!
//! Cost: an append adds to one relaxed counter; the eviction runs on the appending
//! thread (after its log's lock is released) once per budget/8 bytes appended, and
//! only one thread evicts at a time (others go on). It locks each log in turn, never
//! while holding another's lock, so it cannot deadlock with an append.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

use crate::sync::lock;

/// A log the budget can drop records from (`LogRing`).
pub(crate) trait Evict: Sync {
    /// Frees the oldest record; its heap bytes, or `None` when the log is empty.
    fn drop_oldest(&self) -> Option<usize>;
}

/// Heap bytes all text logs may hold together (32 MiB).
pub const LOG_BYTES_BUDGET: usize = 32 << 20;

/// Held by unit tests that evict, or that read logs an eviction could shorten: it
/// drops from every log of the process.
#[cfg(test)]
pub(crate) static TEST_LOGS: Mutex<()> = Mutex::new(());

/// Heap bytes the text logs' records hold now.
static HELD: AtomicUsize = AtomicUsize::new(0);

/// Every log that recorded, in first-use order, and the next one to drop from.
struct Logs {
    all: Vec<&'static dyn Evict>,
    hand: usize,
}

static LOGS: Mutex<Logs> = Mutex::new(Logs { all: Vec::new(), hand: 0 });

/// Adds `log` to the logs the budget drops from (once per log, on its first record).
pub(crate) fn register(log: &'static dyn Evict) {
    lock(&LOGS).all.push(log);
}

/// Counts a change of one record's heap bytes.
pub(crate) fn changed(before: usize, after: usize) {
    if after > before {
        HELD.fetch_add(after - before, Relaxed);
    } else {
        HELD.fetch_sub(before - after, Relaxed);
    }
}

/// Heap bytes the text logs hold now.
pub fn log_bytes() -> usize {
    HELD.load(Relaxed)
}

/// Drops the oldest records, log by log, while the logs hold more than the budget;
/// another thread already doing so is left to it.
pub(crate) fn enforce() {
    enforce_with(LOG_BYTES_BUDGET);
}

pub(crate) fn enforce_with(budget: usize) {
    if HELD.load(Relaxed) <= budget {
        return;
    }
    let Ok(mut logs) = LOGS.try_lock() else { return };
    let target = budget - budget / 8;
    // Stops after a whole round that freed nothing (every log empty).
    let mut idle = 0;
    while HELD.load(Relaxed) > target && idle < logs.all.len() {
        let log = logs.all[logs.hand % logs.all.len()];
        logs.hand = (logs.hand + 1) % logs.all.len();
        match log.drop_oldest() {
            Some(bytes) => {
                changed(bytes, 0);
                idle = 0;
            }
            None => idle += 1,
        }
    }
}
