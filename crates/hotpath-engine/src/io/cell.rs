//! One entry's numbers on one thread, and their merge over threads.
//!
//! Written only by the owning thread with relaxed load + store (no locked
//! read-modify-write); read by the collector, which may see a counter slightly
//! behind but never torn.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::histogram::{Histogram, LocalHistogram};
use crate::record::weighted_tick::{decode, duration, SHADOW_ONLY, WEIGHTED};
use crate::record::Totals;
use crate::sync::bump;

/// The operations an `io!` wrapper records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Read,
    Write,
    Flush,
    /// Only async writers shut down (`poll_shutdown`, the `tokio` feature).
    #[cfg(feature = "tokio")]
    Shutdown,
}

/// `start` of an operation whose duration is not sampled (see `sampling`).
pub(crate) const UNTIMED: u64 = 1;

/// Reads or writes: counts, bytes and the durations of timed operations.
pub(crate) struct TransferCell {
    ops: AtomicU64,
    bytes: AtomicU64,
    errors: AtomicU64,
    timed_ops: AtomicU64,
    timed_bytes: AtomicU64,
    timed_ticks: AtomicU64,
    min: AtomicU64,
    max: AtomicU64,
    histogram: LocalHistogram,
    /// Under the budget: what the timed operations stand for beyond themselves,
    /// `Σ (2^k - 1)` operations and `Σ (2^k - 1)·d` ticks, and the variance estimate
    /// of the total, `Σ (2^k - 1)·2^k·d²` (`f64` bits; `record/weighted.rs`).
    extra_ops: AtomicU64,
    extra_ticks: AtomicU64,
    var: AtomicU64,
    /// Tests only: the untimed operations' durations (`SHADOW_ONLY`).
    shadow_ticks: AtomicU64,
}

/// Flushes and shutdowns: counts and summed durations, no bytes.
pub(crate) struct ControlCell {
    ops: AtomicU64,
    errors: AtomicU64,
    timed_ops: AtomicU64,
    timed_ticks: AtomicU64,
}

/// Per-thread record of one entry.
pub(crate) struct IoCell {
    instances: AtomicU64,
    read: TransferCell,
    write: TransferCell,
    flush: ControlCell,
    shutdown: ControlCell,
}

impl TransferCell {
    const fn new() -> Self {
        Self {
            ops: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            timed_ops: AtomicU64::new(0),
            timed_bytes: AtomicU64::new(0),
            timed_ticks: AtomicU64::new(0),
            min: AtomicU64::new(u64::MAX),
            max: AtomicU64::new(0),
            histogram: LocalHistogram::new(),
            extra_ops: AtomicU64::new(0),
            extra_ticks: AtomicU64::new(0),
            var: AtomicU64::new(0),
            shadow_ticks: AtomicU64::new(0),
        }
    }

    #[inline(always)]
    fn complete(&self, bytes: u64, start: u64, end: u64) {
        bump(&self.ops, 1);
        bump(&self.bytes, bytes);
        // One signed compare: exact starts are above UNTIMED, weighted ones negative.
        if start as i64 <= UNTIMED as i64 {
            if start >= WEIGHTED {
                self.weighted(start, end, bytes);
            }
        } else {
            let elapsed = end.saturating_sub(start);
            bump(&self.timed_ops, 1);
            bump(&self.timed_bytes, bytes);
            bump(&self.timed_ticks, elapsed);
            if elapsed < self.min.load(Relaxed) {
                self.min.store(elapsed, Relaxed);
            }
            if elapsed > self.max.load(Relaxed) {
                self.max.store(elapsed, Relaxed);
            }
            self.histogram.record(elapsed);
        }
    }

    /// A timed operation of weight `2^k` > 1 (the budget's), or a shadow-only one.
    #[cold]
    #[inline(never)]
    fn weighted(&self, start: u64, end: u64, bytes: u64) {
        let (elapsed, k) = decode(start, end);
        if k == SHADOW_ONLY {
            return bump(&self.shadow_ticks, elapsed);
        }
        let extra = (1u64 << k) - 1;
        bump(&self.timed_ops, 1);
        bump(&self.timed_bytes, bytes);
        bump(&self.timed_ticks, elapsed);
        bump(&self.extra_ops, extra);
        bump(&self.extra_ticks, extra * elapsed);
        let d = elapsed as f64;
        let var = f64::from_bits(self.var.load(Relaxed)) + extra as f64 * (extra + 1) as f64 * d * d;
        self.var.store(var.to_bits(), Relaxed);
        self.min.store(self.min.load(Relaxed).min(elapsed), Relaxed);
        self.max.store(self.max.load(Relaxed).max(elapsed), Relaxed);
        self.histogram.record_n(elapsed, extra + 1);
    }
}

impl TransferCell {
    fn reset(&self) {
        for c in
            [&self.ops, &self.bytes, &self.errors, &self.timed_ops, &self.timed_bytes, &self.timed_ticks, &self.max]
                .into_iter()
                .chain([&self.extra_ops, &self.extra_ticks, &self.var, &self.shadow_ticks])
        {
            c.store(0, Relaxed);
        }
        self.min.store(u64::MAX, Relaxed);
        self.histogram.reset();
    }
}

impl ControlCell {
    fn reset(&self) {
        for c in [&self.ops, &self.errors, &self.timed_ops, &self.timed_ticks] {
            c.store(0, Relaxed);
        }
    }

    const fn new() -> Self {
        Self {
            ops: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            timed_ops: AtomicU64::new(0),
            timed_ticks: AtomicU64::new(0),
        }
    }

    #[inline(always)]
    fn complete(&self, start: u64, end: u64) {
        bump(&self.ops, 1);
        if start > UNTIMED {
            // No estimate here: the timed operations' own sum, a shadow-only one counted.
            let (elapsed, k) = duration(start, end);
            if k != SHADOW_ONLY {
                bump(&self.timed_ops, 1);
                bump(&self.timed_ticks, elapsed);
            }
        }
    }
}

impl Default for IoCell {
    fn default() -> Self {
        Self::new()
    }
}

impl IoCell {
    pub(crate) const fn new() -> Self {
        Self {
            instances: AtomicU64::new(0),
            read: TransferCell::new(),
            write: TransferCell::new(),
            flush: ControlCell::new(),
            shutdown: ControlCell::new(),
        }
    }

    /// A wrapper instance was created.
    pub(crate) fn add_instance(&self) {
        bump(&self.instances, 1);
    }

    /// A completed operation of `bytes` bytes; `start` is [`UNTIMED`] or the tick
    /// at which it began, `end` the tick at which it completed.
    #[inline(always)]
    pub(crate) fn complete(&self, kind: Kind, bytes: u64, start: u64, end: u64) {
        match kind {
            Kind::Read => self.read.complete(bytes, start, end),
            Kind::Write => self.write.complete(bytes, start, end),
            Kind::Flush => self.flush.complete(start, end),
            #[cfg(feature = "tokio")]
            Kind::Shutdown => self.shutdown.complete(start, end),
        }
    }

    /// Completed operations of every kind on this thread.
    pub(crate) fn ops(&self) -> u64 {
        [&self.read.ops, &self.write.ops, &self.flush.ops, &self.shutdown.ops].iter().map(|c| c.load(Relaxed)).sum()
    }

    /// A failed operation (retryable conditions never get here).
    #[inline(always)]
    pub(crate) fn fail(&self, kind: Kind) {
        let errors = match kind {
            Kind::Read => &self.read.errors,
            Kind::Write => &self.write.errors,
            Kind::Flush => &self.flush.errors,
            #[cfg(feature = "tokio")]
            Kind::Shutdown => &self.shutdown.errors,
        };
        bump(errors, 1);
    }
}

/// Reads or writes merged over threads, in ticks.
#[derive(Clone)]
pub(crate) struct TransferTotals {
    pub(crate) ops: u64,
    pub(crate) bytes: u64,
    pub(crate) errors: u64,
    pub(crate) timed_ops: u64,
    pub(crate) timed_bytes: u64,
    pub(crate) timed_ticks: u64,
    pub(crate) min: u64,
    pub(crate) max: u64,
    pub(crate) histogram: Histogram,
    pub(crate) extra_ops: u64,
    pub(crate) extra_ticks: u64,
    pub(crate) var: f64,
    pub(crate) shadow_ticks: u64,
}

impl Default for TransferTotals {
    fn default() -> Self {
        Self {
            ops: 0,
            bytes: 0,
            errors: 0,
            timed_ops: 0,
            timed_bytes: 0,
            timed_ticks: 0,
            min: u64::MAX,
            max: 0,
            histogram: Histogram::default(),
            extra_ops: 0,
            extra_ticks: 0,
            var: 0.0,
            shadow_ticks: 0,
        }
    }
}

impl TransferTotals {
    fn add_cell(&mut self, cell: &TransferCell) {
        self.ops += cell.ops.load(Relaxed);
        self.bytes += cell.bytes.load(Relaxed);
        self.errors += cell.errors.load(Relaxed);
        self.timed_ops += cell.timed_ops.load(Relaxed);
        self.timed_bytes += cell.timed_bytes.load(Relaxed);
        self.timed_ticks += cell.timed_ticks.load(Relaxed);
        self.min = self.min.min(cell.min.load(Relaxed));
        self.max = self.max.max(cell.max.load(Relaxed));
        self.histogram.merge_local(&cell.histogram);
        self.extra_ops += cell.extra_ops.load(Relaxed);
        self.extra_ticks += cell.extra_ticks.load(Relaxed);
        self.var += f64::from_bits(cell.var.load(Relaxed));
        self.shadow_ticks += cell.shadow_ticks.load(Relaxed);
    }
}

/// Flushes or shutdowns merged over threads.
#[derive(Clone, Default)]
pub(crate) struct ControlTotals {
    pub(crate) ops: u64,
    pub(crate) errors: u64,
    pub(crate) timed_ops: u64,
    pub(crate) timed_ticks: u64,
}

impl ControlTotals {
    fn add_cell(&mut self, cell: &ControlCell) {
        self.ops += cell.ops.load(Relaxed);
        self.errors += cell.errors.load(Relaxed);
        self.timed_ops += cell.timed_ops.load(Relaxed);
        self.timed_ticks += cell.timed_ticks.load(Relaxed);
    }
}

/// One entry's numbers merged over live and exited threads.
#[derive(Clone, Default)]
pub(crate) struct IoTotals {
    pub(crate) instances: u64,
    pub(crate) read: TransferTotals,
    pub(crate) write: TransferTotals,
    pub(crate) flush: ControlTotals,
    pub(crate) shutdown: ControlTotals,
}

impl IoTotals {
    /// True when anything at all was recorded.
    pub(crate) fn is_empty(&self) -> bool {
        self.instances == 0 && self.activity() == 0
    }

    /// Timed operations of every kind.
    pub(crate) fn timed_ops(&self) -> u64 {
        self.read.timed_ops + self.write.timed_ops + self.flush.timed_ops + self.shutdown.timed_ops
    }

    /// Operations and errors of every kind.
    pub(crate) fn activity(&self) -> u64 {
        self.read.ops
            + self.read.errors
            + self.write.ops
            + self.write.errors
            + self.flush.ops
            + self.flush.errors
            + self.shutdown.ops
            + self.shutdown.errors
    }
}

impl Totals<IoCell> for IoTotals {
    /// Adds one thread's cell.
    fn add_cell(&mut self, cell: &IoCell) {
        self.instances += cell.instances.load(Relaxed);
        self.read.add_cell(&cell.read);
        self.write.add_cell(&cell.write);
        self.flush.add_cell(&cell.flush);
        self.shutdown.add_cell(&cell.shutdown);
    }

    /// Bytes held by the histograms, for memory accounting of retired totals.
    fn heap_bytes(&self) -> usize {
        self.read.histogram.heap_bytes() + self.write.histogram.heap_bytes()
    }
}

impl crate::record::Reset for IoCell {
    /// Zeroes the numbers for a new session.
    fn reset(&self) {
        self.instances.store(0, Relaxed);
        self.read.reset();
        self.write.reset();
        self.flush.reset();
        self.shutdown.reset();
    }
}
