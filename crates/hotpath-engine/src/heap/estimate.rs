//! From samples to estimates: the live bytes and objects a set of samples stands
//! for, and the 95% interval around them.
//!
//! An allocation of `s` bytes is sampled with probability `p = 1 - exp(-s/T)`, so
//! each sample stands for `1/p` allocations and `s/p` bytes (Horvitz-Thompson: an
//! unbiased estimate). The number of samples `n` a stack shows is a sum of
//! independent rare draws, Poisson to a good approximation; its 95% interval
//! (Byar's approximation of the exact Poisson interval: its upper end within 1%
//! of the exact one, its lower end within 1% from n = 10 and lower below)
//! scales the estimate: `[est · lo(n)/n, est · hi(n)/n]`. For allocations much
//! larger than `T` (p ≈ 1) the interval is wider than the truth needs: conservative.

/// What the samples of one group stand for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Estimate {
    pub(crate) samples: u64,
    pub(crate) bytes: f64,
    pub(crate) objects: f64,
}

/// z of a two-sided 95% interval.
const Z: f64 = 1.959_963_985;

impl Estimate {
    /// Adds one live sample of `size` bytes, sampled at a mean of `mean` bytes.
    pub(crate) fn add(&mut self, size: usize, mean: u64) {
        let p = -(-(size.max(1) as f64) / mean.max(1) as f64).exp_m1();
        self.samples += 1;
        self.objects += 1.0 / p;
        self.bytes += size as f64 / p;
    }

    /// `samples` samples of `bytes` bytes in all, each taken as of their mean size.
    pub(crate) fn repeated(samples: u64, bytes: u64, mean: u64) -> Self {
        let Some(size) = bytes.checked_div(samples) else { return Self::default() };
        let p = -(-(size.max(1) as f64) / mean.max(1) as f64).exp_m1();
        Self { samples, bytes: bytes as f64 / p, objects: samples as f64 / p }
    }

    pub(crate) fn merge(&mut self, other: &Estimate) {
        self.samples += other.samples;
        self.bytes += other.bytes;
        self.objects += other.objects;
    }

    /// `(low, high)` of `value` (this group's bytes or objects) at 95%.
    pub(crate) fn interval(&self, value: f64) -> (u64, u64) {
        if self.samples == 0 {
            return (0, 0);
        }
        let n = self.samples as f64;
        let (lo, hi) = poisson_interval(self.samples);
        ((value * lo / n).floor() as u64, (value * hi / n).ceil() as u64)
    }
}

/// Byar's 95% interval for the mean of a Poisson variable observed as `n`.
pub(crate) fn poisson_interval(n: u64) -> (f64, f64) {
    let n = n as f64;
    let lo = if n == 0.0 { 0.0 } else { n * (1.0 - 1.0 / (9.0 * n) - Z / (3.0 * n.sqrt())).powi(3) };
    let m = n + 1.0;
    let hi = m * (1.0 - 1.0 / (9.0 * m) + Z / (3.0 * m.sqrt())).powi(3);
    (lo.max(0.0), hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poisson_intervals_match_the_exact_ones() {
        // Exact 95% limits (chi-square), from tables: n=1: 0.0253..5.572;
        // n=10: 4.795..18.39; n=100: 81.36..121.63.
        for (n, lo, hi) in [(1, 0.0253, 5.572), (10, 4.795, 18.39), (100, 81.36, 121.63)] {
            let (l, h) = poisson_interval(n);
            // The lower end is never above the exact one (wider: conservative).
            assert!(l <= lo * 1.002 && (n < 10 || (lo - l) / lo < 0.01), "n={n}: low {l}");
            assert!((h - hi).abs() / hi < 0.01, "n={n}: high {h}");
        }
    }

    #[test]
    fn small_allocations_stand_for_many_large_ones_for_themselves() {
        let mut e = Estimate::default();
        e.add(1024, 512 * 1024);
        assert!((e.objects - 512.5).abs() < 1.0, "{}", e.objects);
        let mut big = Estimate::default();
        big.add(64 << 20, 512 * 1024);
        assert!((big.objects - 1.0).abs() < 1e-9);
        let (lo, hi) = e.interval(e.bytes);
        assert!(lo < e.bytes as u64 && hi > e.bytes as u64);
    }
}
