//! How much the log store keeps: records per entry, characters per record, keys per
//! macro. Resolved with the session's configuration, read on every append (relaxed
//! loads of values written once at start).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

use crate::clock;

/// Log records kept per tracker when `HOTPATH_LOGS_LIMIT` is not set.
pub const DEFAULT_LOGS_LIMIT: usize = 50;
/// Characters kept of a value's `Debug` text when `HOTPATH_MAX_LOG_LEN` is not set.
pub const DEFAULT_MAX_LOG_LEN: usize = 1536;
/// Keys per macro, `<other>` included, when `HOTPATH_ENTRIES_LIMIT` is not set.
pub const DEFAULT_ENTRIES_LIMIT: usize = 1000;

/// The limits of the log store (part of [`Options`](crate::options::Options)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogLimits {
    /// Records kept per entry (`HOTPATH_LOGS_LIMIT`, 0..=100000); older ones are overwritten.
    pub per_entry: usize,
    /// Characters kept per record (`HOTPATH_MAX_LOG_LEN`, 8..=1048576); a longer text is
    /// cut to `max_len - 3` characters followed by `...`.
    pub max_len: usize,
    /// Distinct keys per keyed macro, `<other>` included (`HOTPATH_ENTRIES_LIMIT`,
    /// 1..=1000000); further keys fold into `<other>`.
    pub entries: usize,
}

impl Default for LogLimits {
    fn default() -> Self {
        Self { per_entry: DEFAULT_LOGS_LIMIT, max_len: DEFAULT_MAX_LOG_LEN, entries: DEFAULT_ENTRIES_LIMIT }
    }
}

static PER_ENTRY: AtomicUsize = AtomicUsize::new(DEFAULT_LOGS_LIMIT);
static MAX_LEN: AtomicUsize = AtomicUsize::new(DEFAULT_MAX_LOG_LEN);
static ENTRIES: AtomicUsize = AtomicUsize::new(DEFAULT_ENTRIES_LIMIT);
/// Clock reading at the session's start: log times are counted from it.
static BASE_TICKS: AtomicU64 = AtomicU64::new(0);

/// Applies the session's limits and starts the log clock (after `clock::init`).
pub(crate) fn configure(limits: &LogLimits) {
    PER_ENTRY.store(limits.per_entry, Relaxed);
    MAX_LEN.store(limits.max_len.max(8), Relaxed);
    ENTRIES.store(limits.entries.max(1), Relaxed);
    BASE_TICKS.store(clock::now(), Relaxed);
}

/// Log times count from now (the session calls it right after it takes its start
/// instant, so no log time exceeds the report's wall time).
pub(crate) fn start_now() {
    BASE_TICKS.store(clock::now(), Relaxed);
}

/// The limits in force.
pub(crate) fn current() -> LogLimits {
    LogLimits { per_entry: PER_ENTRY.load(Relaxed), max_len: MAX_LEN.load(Relaxed), entries: ENTRIES.load(Relaxed) }
}

/// Converts clock readings of log records into nanoseconds since the session started.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timebase {
    base: u64,
    ratio: f64,
}

impl Timebase {
    /// The conversion now (may wait up to 1 ms right after start-up: see `clock::ns_per_tick`).
    pub(crate) fn now() -> Self {
        Self { base: BASE_TICKS.load(Relaxed), ratio: clock::ns_per_tick() }
    }

    pub(crate) fn ns(self, ticks: u64) -> u64 {
        clock::to_ns(ticks.saturating_sub(self.base), self.ratio)
    }
}
