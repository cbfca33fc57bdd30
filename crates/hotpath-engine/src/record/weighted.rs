//! What a site's cell keeps beyond the exact figures when its calls are timed at a
//! rate below 1 under the overhead budget, and how a report turns it into estimates.
//!
//! A call timed at rate `p = 2^-k` stands for `2^k` calls (Horvitz–Thompson): its
//! duration, its self time and its histogram count are added times `2^k` to the cell's
//! usual sums, so totals, self time and percentiles are unbiased whatever mix of
//! rates a site had over the run (the collector changes them). Beside them the cell
//! keeps `Σ (2^k - 1)` (the calls the timed ones stand for, so Avg divides by an
//! estimated count) and the variance estimates of total and self time,
//! `Σ (1 - p)/p² · x²` over timed calls, from which a report states a 95% interval.
//!
//! Which calls are timed: `countdown.rs`.
//!
//! Self time: a timed call adds its inclusive time times `2^k` to its parent's
//! children accumulator when the parent is timed; under an untimed call it adds
//! nothing (`functions/budgeted.rs`), so a timed parent's self time, inclusive minus
//! children, is unbiased: each child's expected contribution is its true time. The
//! noise that children's sampling puts into a parent's self time is carried up the
//! same way (`ThreadRecorder::child_var`) and added to the parent's self variance.
//! See docs/ARCHITECTURE.md (Overhead budget).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::countdown_word::Countdown;
use crate::sync::bump;

/// Per-thread, per-site numbers of budget-weighted calls. Owner-written.
pub(crate) struct WeightedCell {
    /// `Σ (2^k - 1)` over weighted calls: how many untimed calls they stand for.
    extra: AtomicU64,
    /// `f64` bits: variance estimate of the total (inclusive) time, ticks².
    var_total: AtomicU64,
    /// `f64` bits: variance estimate of the self time, ticks².
    var_self: AtomicU64,
    /// Highest `k` a timed call had (the lowest rate).
    max_shift: AtomicU64,
    /// Tests only (`switch::SHADOW`): for functions every call's inclusive time,
    /// timed or not; for the other instruments the untimed operations' (the truth is
    /// this plus the timed ones' own durations, the weighted sum minus `excess`).
    shadow: AtomicU64,
    /// `Σ (2^k - 1) · d` over weighted operations: the time they stand for beyond
    /// their own.
    excess: AtomicU64,
    /// The countdown of a recursive site's calls on this thread (`Slot::countdown`).
    countdown: Countdown,
}

/// The shift an operation the budget left untimed gets under `switch::SHADOW` (tests
/// only): timed anyway, its duration goes to the shadow total alone
/// (`record::metric_timed`).
pub(crate) const SHADOW_ONLY: u32 = u8::MAX as u32;

impl WeightedCell {
    pub(crate) const fn new() -> Self {
        Self {
            extra: AtomicU64::new(0),
            var_total: AtomicU64::new(0),
            var_self: AtomicU64::new(0),
            max_shift: AtomicU64::new(0),
            shadow: AtomicU64::new(0),
            excess: AtomicU64::new(0),
            countdown: Countdown::new(),
        }
    }

    /// The countdown of this site's calls on this thread once the site is recursive.
    pub(crate) fn countdown(&self) -> &Countdown {
        &self.countdown
    }

    /// One call timed at rate `2^-shift`: `inclusive` ticks, `exclusive` ticks (its
    /// children's estimates subtracted; may be negative), and the variance its
    /// children's sampling put into its self time. Only an `outermost` call (no call
    /// of its site below it on the thread's stack) is in the total, and in its variance.
    #[inline]
    pub(crate) fn record(&self, shift: u32, inclusive: u64, exclusive: i64, child_var: f64, outermost: bool) {
        let w = (1u64 << shift) as f64;
        if shift > 0 {
            bump(&self.extra, (1u64 << shift) - 1);
            bump(&self.excess, (inclusive << shift) - inclusive);
            if u64::from(shift) > self.max_shift.load(Relaxed) {
                self.max_shift.store(u64::from(shift), Relaxed);
            }
        }
        let f = (w - 1.0) * w;
        let (d, e) = (inclusive as f64, exclusive as f64);
        if outermost {
            add_f64(&self.var_total, f * d * d);
        }
        add_f64(&self.var_self, f * e * e + w * w * child_var);
    }

    /// The variance term a call timed at `2^-shift` adds to its parent's children.
    #[inline]
    pub(crate) fn child_term(shift: u32, inclusive: u64) -> f64 {
        let w = (1u64 << shift) as f64;
        let d = inclusive as f64;
        (w - 1.0) * w * d * d
    }

    /// Tests only: an untimed call's inclusive time, into the shadow total.
    #[inline]
    pub(crate) fn shadow(&self, inclusive: u64) {
        bump(&self.shadow, inclusive);
    }

    /// Whether an operation recorded at `shift` was for the shadow total alone; if so
    /// its duration is added there.
    #[inline]
    pub(crate) fn shadowed(&self, shift: u32, elapsed: u64) -> bool {
        let only = shift == SHADOW_ONLY;
        if only {
            self.shadow(elapsed);
        }
        only
    }

    pub(crate) fn reset(&self) {
        for c in [&self.extra, &self.var_total, &self.var_self, &self.max_shift, &self.shadow, &self.excess] {
            c.store(0, Relaxed);
        }
    }
}

fn add_f64(cell: &AtomicU64, x: f64) {
    cell.store((f64::from_bits(cell.load(Relaxed)) + x).to_bits(), Relaxed);
}

/// [`WeightedCell`]s merged over threads.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct WeightedTotals {
    pub(crate) extra: u64,
    pub(crate) var_total: f64,
    pub(crate) var_self: f64,
    pub(crate) max_shift: u32,
    pub(crate) shadow: u64,
    pub(crate) excess: u64,
}

impl WeightedTotals {
    pub(crate) fn add_cell(&mut self, cell: &WeightedCell) {
        self.extra += cell.extra.load(Relaxed);
        self.var_total += f64::from_bits(cell.var_total.load(Relaxed));
        self.var_self += f64::from_bits(cell.var_self.load(Relaxed));
        self.max_shift = self.max_shift.max(cell.max_shift.load(Relaxed) as u32);
        self.shadow += cell.shadow.load(Relaxed);
        self.excess += cell.excess.load(Relaxed);
    }

    pub(crate) fn add(&mut self, other: &WeightedTotals) {
        self.extra += other.extra;
        self.var_total += other.var_total;
        self.var_self += other.var_self;
        self.max_shift = self.max_shift.max(other.max_shift);
        self.shadow += other.shadow;
        self.excess += other.excess;
    }

    /// Whether any figure of the site is an estimate: some of its calls were timed
    /// at a rate below 1, or its self time subtracts children that were.
    pub(crate) fn estimated(&self) -> bool {
        self.extra > 0 || self.var_self > 0.0
    }
}

/// Half the width of a 95% normal interval around an estimate of variance `var`.
pub(crate) fn half_width_95(var: f64) -> f64 {
    1.959_964 * var.max(0.0).sqrt()
}

/// The 95% interval of an estimated sum `value` (ns) of variance `var` (ticks²), `ratio`
/// ns a tick. Wall times are heavy-tailed (a preempted call lasts milliseconds): a long
/// call that fell among the untimed ones is missing from the sums and from the
/// variance estimate alike. The interval therefore also allows for one call as long as
/// the longest timed one (`max` ticks) being missed, or counted `2^k` times:
/// `(2^k - 1)·max²`, at the lowest rate the site had (`max_shift`).
pub(crate) fn sum_ci95(value: u64, var: f64, max: u64, max_shift: u32, ratio: f64) -> [u64; 2] {
    let tail = (f64::from(1u32 << max_shift.min(31)) - 1.0) * (max as f64) * (max as f64);
    let half = half_width_95(var + tail) * ratio;
    [(value as f64 - half).max(0.0) as u64, (value as f64 + half) as u64]
}

/// The 95% interval of percentile `p` over `n` timed values: the values (read by `at`)
/// at the ranks 1.96 standard errors of a binomial proportion on either side.
pub(crate) fn percentile_ci95(p: f64, n: u64, at: impl Fn(f64) -> u64) -> [u64; 2] {
    let q = p / 100.0;
    let d = 1.959_964 * (q * (1.0 - q) / n.max(1) as f64).sqrt();
    [at(((q - d) * 100.0).clamp(0.0, 100.0)), at(((q + d) * 100.0).clamp(0.0, 100.0))]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_and_variances_follow_horvitz_thompson() {
        let cell = WeightedCell::new();
        cell.record(2, 100, 40, 0.0, true);
        cell.record(0, 10, 10, 5.0, true);
        // A recursive call inside another of its site: not in the total's variance.
        cell.record(1, 7, 7, 0.0, false);
        let mut t = WeightedTotals::default();
        t.add_cell(&cell);
        assert_eq!(t.extra, 4);
        assert_eq!(t.max_shift, 2);
        // (4 - 1) * 4 * 100² for the total; the exact call adds none.
        assert_eq!(t.var_total, 120_000.0);
        // (4 - 1) * 4 * 40², plus the exact call's children variance (weight 1).
        assert_eq!(t.var_self, 19_200.0 + 5.0 + 98.0);
        assert!(t.estimated());
        assert_eq!(WeightedCell::child_term(1, 10), 200.0);
        cell.reset();
        let mut z = WeightedTotals::default();
        z.add_cell(&cell);
        assert!(!z.estimated());
    }
}
