//! The Mann-Whitney U test (Wilcoxon rank-sum), used on per-run timing values.
//!
//! Why this test: it assumes nothing about the shape of the timing distribution
//! (run times are skewed and have outliers), works from a handful of runs, and its
//! exact distribution is cheap to compute for the run counts CI can afford. Small
//! samples (the usual case) get the exact permutation p-value, ties included; large
//! ones the normal approximation with tie and continuity corrections.

use std::collections::HashMap;

/// Up to this many values in total the p-value is exact.
const EXACT_MAX: usize = 50;

/// Computes two-sided Mann-Whitney p-values, caching the exact null distributions
/// (they depend only on the rank pattern, which most metrics of one comparison share).
#[derive(Default)]
pub(crate) struct MannWhitney {
    cache: HashMap<(Vec<u32>, usize), Vec<f64>>,
}

impl MannWhitney {
    /// Two-sided p-value of "`a` and `b` come from the same distribution".
    /// 1.0 when either sample is empty or every value is equal.
    pub(crate) fn p_value(&mut self, a: &[f64], b: &[f64]) -> f64 {
        if a.is_empty() || b.is_empty() {
            return 1.0;
        }
        let ranks = doubled_midranks(a, b);
        // Rank sum of `a`, doubled so that midranks of ties stay integers.
        let w: u32 = ranks[..a.len()].iter().sum();
        if a.len() + b.len() <= EXACT_MAX {
            self.exact(&ranks, a.len(), w)
        } else {
            normal(&ranks, a.len(), b.len(), w)
        }
    }

    fn exact(&mut self, ranks: &[u32], n1: usize, w: u32) -> f64 {
        let mut key = ranks.to_vec();
        key.sort_unstable();
        let dist = self.cache.entry((key, n1)).or_insert_with_key(|(sorted, n1)| rank_sum_distribution(sorted, *n1));
        let total: f64 = dist.iter().sum();
        let w = w as usize;
        let low: f64 = dist[..=w].iter().sum();
        let high: f64 = dist[w..].iter().sum();
        (2.0 * low.min(high) / total).min(1.0)
    }
}

/// The smallest two-sided p-value the test can give for samples of these sizes
/// (complete separation, no ties): `2 / C(n1 + n2, n1)`.
pub(crate) fn min_p_value(n1: usize, n2: usize) -> f64 {
    let mut combinations = 1.0;
    for i in 0..n1.min(n2) {
        combinations = combinations * (n1 + n2 - i) as f64 / (i + 1) as f64;
    }
    (2.0 / combinations).min(1.0)
}

/// Median of a non-empty sample (mean of the middle two for even sizes).
pub(crate) fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    }
}

/// Ranks (1-based, tied values share the mean of their ranks) of `a` then `b`, times two.
fn doubled_midranks(a: &[f64], b: &[f64]) -> Vec<u32> {
    let values: Vec<f64> = a.iter().chain(b).copied().collect();
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
    let mut ranks = vec![0u32; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end hold equal values: ranks start+1..=end, mean doubled = start+1+end.
        for &i in &order[start..end] {
            ranks[i] = (start + 1 + end) as u32;
        }
        start = end;
    }
    ranks
}

/// Number of ways to pick `n1` of the ranks for each possible (doubled) rank sum.
fn rank_sum_distribution(ranks: &[u32], n1: usize) -> Vec<f64> {
    let max_sum: usize = ranks.iter().rev().take(n1).map(|&r| r as usize).sum();
    // ways[k][s]: subsets of size k of the ranks seen so far with sum s.
    let mut ways = vec![vec![0.0f64; max_sum + 1]; n1 + 1];
    ways[0][0] = 1.0;
    for &r in ranks {
        let r = r as usize;
        for k in (1..=n1).rev() {
            let (lower, upper) = ways.split_at_mut(k);
            for s in (r..=max_sum).rev() {
                upper[0][s] += lower[k - 1][s - r];
            }
        }
    }
    ways.swap_remove(n1)
}

/// Normal approximation of the U statistic with tie and continuity corrections.
fn normal(ranks: &[u32], n1: usize, n2: usize, w: u32) -> f64 {
    let (n1f, n2f) = (n1 as f64, n2 as f64);
    let n = n1f + n2f;
    let u = f64::from(w) / 2.0 - n1f * (n1f + 1.0) / 2.0;
    let mean = n1f * n2f / 2.0;
    let mut counts: HashMap<u32, f64> = HashMap::new();
    for &r in ranks {
        *counts.entry(r).or_default() += 1.0;
    }
    let ties: f64 = counts.values().map(|t| t * t * t - t).sum();
    let variance = n1f * n2f / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
    if variance <= 0.0 {
        return 1.0;
    }
    let z = ((u - mean).abs() - 0.5).max(0.0) / variance.sqrt();
    libm::erfc(z / std::f64::consts::SQRT_2).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact two-sided p-value by enumerating every split of the pooled values.
    fn brute_force(a: &[f64], b: &[f64]) -> f64 {
        let ranks = doubled_midranks(a, b);
        let w: u32 = ranks[..a.len()].iter().sum();
        let n = ranks.len();
        let (mut low, mut high, mut total) = (0u64, 0u64, 0u64);
        for mask in 0u32..(1 << n) {
            if mask.count_ones() as usize != a.len() {
                continue;
            }
            let s: u32 = (0..n).filter(|i| mask & (1 << i) != 0).map(|i| ranks[i]).sum();
            total += 1;
            low += u64::from(s <= w);
            high += u64::from(s >= w);
        }
        (2.0 * low.min(high) as f64 / total as f64).min(1.0)
    }

    #[test]
    fn complete_separation_gives_the_smallest_p() {
        let mut mw = MannWhitney::default();
        let p = mw.p_value(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]);
        assert!((p - 0.1).abs() < 1e-12, "{p}");
        assert!((min_p_value(3, 3) - 0.1).abs() < 1e-12);
        let p = mw.p_value(&[10.0, 11.0, 12.0, 13.0, 14.0], &[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert!((p - 2.0 / 252.0).abs() < 1e-12, "{p}");
        assert!((min_p_value(5, 5) - 2.0 / 252.0).abs() < 1e-12);
        assert!((min_p_value(4, 4) - 2.0 / 70.0).abs() < 1e-12);
    }

    #[test]
    fn exact_matches_enumeration_with_and_without_ties() {
        let mut mw = MannWhitney::default();
        let cases: [(&[f64], &[f64]); 5] = [
            (&[1.0, 4.0, 6.0, 9.0], &[2.0, 3.0, 5.0, 7.0, 8.0]),
            (&[1.0, 1.0, 2.0, 5.0], &[1.0, 3.0, 3.0, 5.0, 6.0, 7.0]),
            (&[3.0, 3.0, 3.0], &[3.0, 3.0, 4.0]),
            (&[5.0, 6.0, 7.0, 8.0, 9.0, 10.0], &[1.0, 2.0, 3.0, 4.0, 11.0, 12.0]),
            (&[2.5, 2.5, 2.5, 2.5, 1.0, 9.0, 9.0], &[2.5, 9.0, 0.5, 0.5, 7.0]),
        ];
        for (a, b) in cases {
            let (got, want) = (mw.p_value(a, b), brute_force(a, b));
            assert!((got - want).abs() < 1e-12, "{a:?} {b:?}: {got} != {want}");
            // The test is symmetric in its samples.
            assert!((mw.p_value(b, a) - want).abs() < 1e-12);
        }
    }

    #[test]
    fn equal_samples_are_not_significant() {
        let mut mw = MannWhitney::default();
        assert_eq!(mw.p_value(&[7.0; 4], &[7.0; 4]), 1.0);
        assert_eq!(mw.p_value(&[7.0; 40], &[7.0; 40]), 1.0);
        assert_eq!(mw.p_value(&[], &[1.0]), 1.0);
    }

    #[test]
    fn normal_approximation_agrees_with_exact_near_the_switch() {
        // 25 + 25 values: exact; the same data through the approximation must be close.
        let a: Vec<f64> = (0..25).map(|i| f64::from(i * 3 % 17) + 0.25).collect();
        let b: Vec<f64> = (0..25).map(|i| f64::from(i * 5 % 19) + 1.5).collect();
        let ranks = doubled_midranks(&a, &b);
        let w: u32 = ranks[..25].iter().sum();
        let exact = MannWhitney::default().p_value(&a, &b);
        let approx = normal(&ranks, 25, 25, w);
        assert!((exact - approx).abs() < 0.01, "exact {exact} approx {approx}");
        // Beyond the exact limit, a clear shift is still detected.
        let big_a: Vec<f64> = (0..40).map(f64::from).collect();
        let big_b: Vec<f64> = (0..40).map(|i| f64::from(i) + 30.0).collect();
        assert!(MannWhitney::default().p_value(&big_a, &big_b) < 1e-6);
    }

    #[test]
    fn medians() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[5.0]), 5.0);
    }

    /// The normal approximation's erfc (libm's) against reference values (C99's, as
    /// Python's math.erfc prints them) and at its limits.
    #[test]
    fn erfc_matches_reference_values() {
        for (x, want) in [
            (0.0, 1.0),
            (0.1, 0.8875370839817152),
            (0.5, 0.4795001221869535),
            (1.0, 0.15729920705028513),
            (1.5, 0.033894853524689274),
            (2.0, 0.004677734981047265),
            (2.4, 0.0006885138966450789),
            (2.5, 0.0004069520174449589),
            (2.6, 0.00023603441652934908),
            (3.0, 2.2090496998585438e-05),
            (4.0, 1.541725790028002e-08),
            (5.0, 1.5374597944280351e-12),
            (8.0, 1.1224297172982928e-29),
            (-1.0, 1.842700792949715),
        ] {
            let got = libm::erfc(x);
            assert!(((got - want) / want).abs() < 1e-12, "erfc({x}) = {got}, want {want}");
        }
        assert_eq!(libm::erfc(40.0), 0.0);
        assert_eq!(libm::erfc(-40.0), 2.0);
        assert!(libm::erfc(f64::NAN).is_nan());
        assert_eq!(libm::erfc(f64::INFINITY), 0.0);
    }
}
