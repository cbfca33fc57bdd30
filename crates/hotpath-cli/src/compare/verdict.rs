//! The verdict on one metric: how its head values differ from its base values, and
//! whether that difference is a regression.
//!
//! - Exact values (bytes, counts) need no statistics: equal is unchanged, and a change
//!   beyond the threshold is a regression or an improvement. If a side's runs disagree
//!   (nondeterministic allocation, say), the verdict also needs every head run to lie
//!   beyond every base run; overlapping ranges are inconclusive.
//! - Noisy values (durations) with several runs per side are compared with the
//!   Mann-Whitney U test: a regression needs p <= alpha *and* a median change beyond
//!   the threshold. A change beyond the threshold that is not significant is
//!   inconclusive. With one run on either side no test is possible, and one run of a
//!   noisy value says nothing about its spread (17 ns against 22 ns is noise as often
//!   as not): a change beyond the threshold is inconclusive, never a regression.

use serde::Serialize;

use super::kind::Kind;
use super::stats::{median, MannWhitney};

/// What the user asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Settings {
    /// Smallest relative change that counts, in percent.
    pub(crate) threshold_pct: f64,
    /// Significance level of the test.
    pub(crate) alpha: f64,
    /// Smallest relative change of an instruction count that counts, in percent.
    pub(crate) icount_threshold_pct: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Verdict {
    /// Worse beyond the threshold (and significant, for noisy values).
    Regressed,
    /// Better beyond the threshold (and significant, for noisy values).
    Improved,
    /// Changed, but by no more than the threshold.
    WithinThreshold,
    /// Equal, or a small difference that is not significant.
    Unchanged,
    /// Beyond the threshold but not significant, not testable (one run of a noisy
    /// value), or run ranges overlap.
    Inconclusive,
    /// Only in head.
    Added,
    /// Only in base.
    Removed,
    /// Missing from one side whose reports were cut by their row limit.
    OutsideLimit,
}

impl Verdict {
    pub(crate) fn text(self) -> &'static str {
        match self {
            Self::Regressed => "regressed",
            Self::Improved => "improved",
            Self::WithinThreshold => "within threshold",
            Self::Unchanged => "unchanged",
            Self::Inconclusive => "inconclusive",
            Self::Added => "added",
            Self::Removed => "removed",
            Self::OutsideLimit => "outside row limit",
        }
    }
}

/// How the verdict was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Method {
    /// Exact values compared directly.
    Exact,
    /// A noisy value with one run on a side: no significance test, so a change beyond
    /// the threshold is inconclusive.
    SingleRun,
    /// Mann-Whitney U test on the per-run values.
    MannWhitney,
}

/// Median and range of one side's values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Stats {
    pub(crate) median: f64,
    pub(crate) min: f64,
    pub(crate) max: f64,
    pub(crate) values: Vec<f64>,
}

impl Stats {
    pub(crate) fn of(values: &[f64]) -> Self {
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Self { median: median(values), min, max, values: values.to_vec() }
    }

    fn varies(&self) -> bool {
        self.min != self.max
    }
}

/// The judgement on one metric present on both sides.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Judgement {
    pub(crate) base: Stats,
    pub(crate) head: Stats,
    /// Change of the median in percent; `None` when base is zero and head is not.
    pub(crate) change_pct: Option<f64>,
    pub(crate) method: Method,
    pub(crate) p_value: Option<f64>,
    pub(crate) verdict: Verdict,
}

/// Judges one metric; both slices are non-empty.
pub(crate) fn judge(kind: Kind, base: &[f64], head: &[f64], settings: Settings, mw: &mut MannWhitney) -> Judgement {
    let (b, h) = (Stats::of(base), Stats::of(head));
    let change_pct =
        if b.median == 0.0 { (h.median == 0.0).then_some(0.0) } else { Some((h.median - b.median) / b.median * 100.0) };
    let changed = h.median != b.median;
    let threshold = if kind == Kind::Instructions { settings.icount_threshold_pct } else { settings.threshold_pct };
    let beyond = change_pct.is_none_or(|c| c.abs() > threshold);
    let direction =
        if (h.median > b.median) == kind.higher_is_worse() { Verdict::Regressed } else { Verdict::Improved };
    let (method, p_value, verdict) = if !kind.is_statistical() {
        let separated = h.min > b.max || h.max < b.min;
        let verdict = match () {
            _ if !changed => Verdict::Unchanged,
            _ if !beyond => Verdict::WithinThreshold,
            _ if (b.varies() || h.varies()) && !separated => Verdict::Inconclusive,
            _ => direction,
        };
        (Method::Exact, None, verdict)
    } else if base.len() == 1 || head.len() == 1 {
        let verdict = match () {
            _ if !changed => Verdict::Unchanged,
            _ if !beyond => Verdict::WithinThreshold,
            _ => Verdict::Inconclusive,
        };
        (Method::SingleRun, None, verdict)
    } else {
        let p = mw.p_value(base, head);
        let verdict = match (p <= settings.alpha, beyond) {
            (true, true) => direction,
            (true, false) => Verdict::WithinThreshold,
            (false, true) => Verdict::Inconclusive,
            (false, false) => Verdict::Unchanged,
        };
        (Method::MannWhitney, Some(p), verdict)
    };
    Judgement { base: b, head: h, change_pct, method, p_value, verdict }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Settings = Settings { threshold_pct: 10.0, alpha: 0.05, icount_threshold_pct: 1.0 };

    fn verdict(kind: Kind, base: &[f64], head: &[f64]) -> Judgement {
        judge(kind, base, head, S, &mut MannWhitney::default())
    }

    #[test]
    fn exact_values_compare_exactly() {
        let j = verdict(Kind::Bytes, &[4096.0], &[4096.0]);
        assert_eq!((j.verdict, j.method, j.change_pct), (Verdict::Unchanged, Method::Exact, Some(0.0)));
        assert_eq!(verdict(Kind::Bytes, &[4096.0; 3], &[8192.0; 3]).verdict, Verdict::Regressed);
        assert_eq!(verdict(Kind::Count, &[100.0], &[50.0]).verdict, Verdict::Improved);
        assert_eq!(verdict(Kind::Count, &[100.0], &[105.0]).verdict, Verdict::WithinThreshold);
        // From nothing to something is beyond any threshold.
        let j = verdict(Kind::Bytes, &[0.0], &[16.0]);
        assert_eq!((j.verdict, j.change_pct), (Verdict::Regressed, None));
    }

    #[test]
    fn instruction_counts_are_exact_with_their_own_threshold() {
        let j = verdict(Kind::Instructions, &[100_000.0], &[100_900.0]);
        assert_eq!((j.verdict, j.method), (Verdict::WithinThreshold, Method::Exact));
        assert_eq!(verdict(Kind::Instructions, &[100_000.0], &[101_100.0]).verdict, Verdict::Regressed);
        assert_eq!(verdict(Kind::Instructions, &[100_000.0], &[98_000.0]).verdict, Verdict::Improved);
        assert_eq!(verdict(Kind::Instructions, &[100_000.0], &[100_000.0]).verdict, Verdict::Unchanged);
        // A count change of 5% is within the general threshold of 10%.
        assert_eq!(verdict(Kind::Count, &[100.0], &[105.0]).verdict, Verdict::WithinThreshold);
    }

    #[test]
    fn varying_exact_values_need_separated_ranges() {
        assert_eq!(verdict(Kind::Count, &[10.0, 30.0, 11.0], &[13.0, 40.0, 14.0]).verdict, Verdict::Inconclusive);
        assert_eq!(verdict(Kind::Count, &[10.0, 12.0, 11.0], &[20.0, 21.0, 19.0]).verdict, Verdict::Regressed);
    }

    #[test]
    fn timing_needs_significance_and_threshold() {
        let base = [100.0, 102.0, 98.0, 101.0, 99.0];
        let j = verdict(Kind::Duration, &base, &[200.0, 210.0, 190.0, 205.0, 195.0]);
        assert_eq!((j.verdict, j.method), (Verdict::Regressed, Method::MannWhitney));
        assert!((j.p_value.unwrap() - 2.0 / 252.0).abs() < 1e-12);
        assert!((j.change_pct.unwrap() - 100.0).abs() < 1e-9);
        // Significant but small: within the threshold.
        assert_eq!(
            verdict(Kind::Duration, &base, &[105.0, 106.0, 104.0, 107.0, 103.0]).verdict,
            Verdict::WithinThreshold
        );
        // Large median change with overlapping runs: not significant.
        let j = verdict(Kind::Duration, &base, &[100.0, 150.0, 97.0, 160.0, 155.0]);
        assert_eq!(j.verdict, Verdict::Inconclusive);
        // Faster throughput is better.
        assert_eq!(verdict(Kind::Rate, &base, &[300.0, 310.0, 290.0, 305.0, 295.0]).verdict, Verdict::Improved);
    }

    #[test]
    fn three_runs_per_side_can_never_be_significant_at_five_percent() {
        let j = verdict(Kind::Duration, &[1.0, 2.0, 3.0], &[40.0, 50.0, 60.0]);
        assert_eq!(j.verdict, Verdict::Inconclusive);
        assert!((j.p_value.unwrap() - 0.1).abs() < 1e-12);
    }

    #[test]
    fn single_runs_of_noisy_values_are_never_regressions() {
        let j = verdict(Kind::Duration, &[17.0], &[22.0]);
        assert_eq!((j.verdict, j.method, j.p_value), (Verdict::Inconclusive, Method::SingleRun, None));
        assert_eq!(verdict(Kind::Rate, &[100.0], &[10.0]).verdict, Verdict::Inconclusive);
        assert_eq!(verdict(Kind::Duration, &[100.0], &[100.0]).verdict, Verdict::Unchanged);
        // Exact values still compare exactly with one run.
        assert_eq!(verdict(Kind::Count, &[17.0], &[22.0]).verdict, Verdict::Regressed);
        assert_eq!(verdict(Kind::Duration, &[100.0], &[95.0]).verdict, Verdict::WithinThreshold);
        assert_eq!(verdict(Kind::Duration, &[100.0, 101.0], &[100.0]).verdict, Verdict::WithinThreshold);
    }
}
