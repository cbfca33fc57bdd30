//! The verdict on one metric: how its head values differ from its base values, and
//! whether that difference is a regression. How a metric is judged comes from the
//! model's table (`hotpath_model::Judging`, beside the unit):
//!
//! - Exact figures (calls, allocations, instructions) whose runs agree on each side
//!   need no statistics: equal is unchanged, a change beyond the minimum effect is a
//!   regression or an improvement, from one run per side. If a side's runs disagree
//!   (a per-run hash seed, say), the figure is not deterministic for this program and
//!   is tested like a timing instead; the output says why.
//! - Statistical figures with several runs per side get the Mann-Whitney U test; its
//!   p-value is adjusted over every metric tested (`family.rs`), and a regression needs
//!   the adjusted p <= alpha, a median change beyond the minimum effect *and*, for
//!   durations, beyond the noise floor in nanoseconds. With one run on either side no
//!   test is possible: a change is at most inconclusive, never a regression.
//! - Informational figures (extremes of single operations, settings) are never judged.

use serde::Serialize;

use hotpath_model::Judging;

use super::family::ErrorControl;
use super::kind::Kind;
use super::stats::{median, MannWhitney};

/// What the user asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Settings {
    /// Smallest relative change that counts (the minimum effect), in percent.
    pub(crate) threshold_pct: f64,
    /// Significance level of the test.
    pub(crate) alpha: f64,
    /// Smallest relative change of an instruction count that counts, in percent.
    pub(crate) icount_threshold_pct: f64,
    /// Smallest absolute change of a duration that counts, in nanoseconds.
    pub(crate) noise_floor_ns: f64,
    /// How p-values are adjusted for the many metrics tested.
    pub(crate) control: ErrorControl,
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
    /// Shown only: an extreme of single operations or a setting.
    NotJudged,
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
            Self::NotJudged => "not judged",
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
    /// Mann-Whitney U test on the per-run values, adjusted over the family.
    MannWhitney,
    /// Informational: shown, never judged.
    NotJudged,
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
    /// The test's own p-value.
    pub(crate) p_value: Option<f64>,
    /// The p-value adjusted for every metric tested (what the verdict uses).
    pub(crate) adjusted_p: Option<f64>,
    /// Why an exact figure was tested instead.
    pub(crate) why: Option<&'static str>,
    pub(crate) verdict: Verdict,
}

/// Why an exact figure is tested: its runs do not repeat it.
pub(crate) const RUNS_DISAGREE: &str = "a side's runs disagree, so it is not deterministic here: tested";

/// Judges one metric; both slices are non-empty. `adjust` maps a raw p-value to its
/// value adjusted over the family of tests.
pub(crate) fn judge(
    kind: Kind,
    judging: Judging,
    (base, head): (&[f64], &[f64]),
    settings: Settings,
    mw: &mut MannWhitney,
    adjust: &dyn Fn(f64) -> f64,
) -> Judgement {
    let (b, h) = (Stats::of(base), Stats::of(head));
    let change_pct =
        if b.median == 0.0 { (h.median == 0.0).then_some(0.0) } else { Some((h.median - b.median) / b.median * 100.0) };
    let changed = h.median != b.median;
    let threshold = if kind == Kind::Instructions { settings.icount_threshold_pct } else { settings.threshold_pct };
    let above_floor = kind != Kind::Duration || (h.median - b.median).abs() > settings.noise_floor_ns;
    let beyond = change_pct.is_none_or(|c| c.abs() > threshold) && above_floor;
    let direction =
        if (h.median > b.median) == kind.higher_is_worse() { Verdict::Regressed } else { Verdict::Improved };
    let mut j = Judgement {
        base: b,
        head: h,
        change_pct,
        method: Method::NotJudged,
        p_value: None,
        adjusted_p: None,
        why: None,
        verdict: Verdict::NotJudged,
    };
    let repeatable = !(j.base.varies() || j.head.varies());
    match judging {
        Judging::Informational => return j,
        Judging::Exact if repeatable => {
            j.method = Method::Exact;
            j.verdict = match () {
                _ if !changed => Verdict::Unchanged,
                _ if !beyond => Verdict::WithinThreshold,
                _ => direction,
            };
            return j;
        }
        Judging::Exact => j.why = Some(RUNS_DISAGREE),
        _ => {}
    }
    if base.len() == 1 || head.len() == 1 {
        j.method = Method::SingleRun;
        j.verdict = match () {
            _ if !changed => Verdict::Unchanged,
            _ if !beyond => Verdict::WithinThreshold,
            _ => Verdict::Inconclusive,
        };
        return j;
    }
    let p = mw.p_value(base, head);
    let adjusted = adjust(p);
    j.method = Method::MannWhitney;
    j.p_value = Some(p);
    j.adjusted_p = Some(adjusted);
    j.verdict = match (adjusted <= settings.alpha, beyond) {
        (true, true) => direction,
        (true, false) => Verdict::WithinThreshold,
        (false, true) => Verdict::Inconclusive,
        (false, false) => Verdict::Unchanged,
    };
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Settings = Settings {
        threshold_pct: 10.0,
        alpha: 0.05,
        icount_threshold_pct: 1.0,
        noise_floor_ns: 0.0,
        control: ErrorControl::Holm,
    };

    fn judged(kind: Kind, judging: Judging, base: &[f64], head: &[f64]) -> Judgement {
        judge(kind, judging, (base, head), S, &mut MannWhitney::default(), &|p| p)
    }

    fn verdict(kind: Kind, base: &[f64], head: &[f64]) -> Judgement {
        let judging = if kind.is_statistical() { Judging::Statistical } else { Judging::Exact };
        judged(kind, judging, base, head)
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
    }

    #[test]
    fn exact_figures_whose_runs_disagree_are_tested_and_say_why() {
        // The hash-seeded `Aggregator::top`: one base run and one head run differ.
        let j = verdict(Kind::Instructions, &[70_337.0, 69_665.0], &[74_328.0, 70_337.0]);
        assert_eq!((j.method, j.why, j.verdict), (Method::MannWhitney, Some(RUNS_DISAGREE), Verdict::Inconclusive));
        // Varying on one side with a single run on the other: no test, no regression.
        let j = verdict(Kind::Count, &[10.0, 30.0, 11.0], &[40.0]);
        assert_eq!((j.method, j.verdict), (Method::SingleRun, Verdict::Inconclusive));
        // A clear separation over enough runs is still caught.
        let j = verdict(Kind::Count, &[10.0, 12.0, 11.0, 10.0, 11.0], &[20.0, 21.0, 19.0, 20.0, 22.0]);
        assert_eq!(j.verdict, Verdict::Regressed);
    }

    #[test]
    fn informational_figures_are_never_judged() {
        let j = judged(Kind::Duration, Judging::Informational, &[496.0; 6], &[706.0; 6]);
        assert_eq!((j.verdict, j.method, j.p_value), (Verdict::NotJudged, Method::NotJudged, None));
    }

    #[test]
    fn timing_needs_significance_threshold_and_noise_floor() {
        let base = [100.0, 102.0, 98.0, 101.0, 99.0];
        let j = verdict(Kind::Duration, &base, &[200.0, 210.0, 190.0, 205.0, 195.0]);
        assert_eq!((j.verdict, j.method), (Verdict::Regressed, Method::MannWhitney));
        assert!((j.p_value.unwrap() - 2.0 / 252.0).abs() < 1e-12);
        assert!((j.change_pct.unwrap() - 100.0).abs() < 1e-9);
        // The same 100 ns doubling under a 200 ns noise floor is no regression.
        let floor = Settings { noise_floor_ns: 200.0, ..S };
        let j = judge(
            Kind::Duration,
            Judging::Statistical,
            (&base, &[200.0, 210.0, 190.0, 205.0, 195.0]),
            floor,
            &mut MannWhitney::default(),
            &|p| p,
        );
        assert_eq!(j.verdict, Verdict::WithinThreshold);
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
    fn the_adjusted_p_value_decides() {
        let base = [100.0, 102.0, 98.0, 101.0, 99.0];
        let head = [200.0, 210.0, 190.0, 205.0, 195.0];
        let j =
            judge(Kind::Duration, Judging::Statistical, (&base, &head), S, &mut MannWhitney::default(), &|p| p * 156.0);
        assert_eq!(j.verdict, Verdict::Inconclusive);
        assert!((j.adjusted_p.unwrap() - 156.0 * 2.0 / 252.0).abs() < 1e-9);
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
