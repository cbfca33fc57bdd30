//! `--aa`: the self-check. Reports of one build (or of `--git REF REF`, one commit
//! against itself) are split into two halves many ways, and each split is compared
//! with the current settings as if it were base against head. Nothing changed, so
//! every regression is a false alarm: the share of splits with one is the false-alarm
//! rate these settings have on this machine, the first thing to measure in a new CI.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use super::diff::Comparison;
use super::policy::Policy;
use super::samples::RunSamples;
use super::side::Side;
use super::verdict::{Settings, Verdict};

/// What the self-check found.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct SelfCheck {
    /// Reports pooled.
    pub(crate) runs: usize,
    /// Runs on each side of one split.
    pub(crate) runs_per_side: usize,
    pub(crate) comparisons: usize,
    /// Comparisons with at least one regression (false alarms, all of them).
    pub(crate) alarmed: usize,
    pub(crate) false_alarm_rate: f64,
    /// Regressed metrics over all comparisons, and metrics judged.
    pub(crate) regressed_metrics: usize,
    pub(crate) judged_metrics: usize,
    /// `section / row / metric` that regressed, with how many comparisons flagged it.
    pub(crate) offenders: BTreeMap<String, usize>,
}

/// Splits `runs` into halves `splits` ways (fewer when there are fewer distinct
/// splits) and compares each; `label` names the build.
pub(crate) fn self_check(
    label: &str,
    runs: &[RunSamples],
    splits: usize,
    settings: Settings,
    policy: Option<&Policy>,
) -> SelfCheck {
    let half = runs.len() / 2;
    let mut check = SelfCheck {
        runs: runs.len(),
        runs_per_side: half,
        comparisons: 0,
        alarmed: 0,
        false_alarm_rate: 0.0,
        regressed_metrics: 0,
        judged_metrics: 0,
        offenders: BTreeMap::new(),
    };
    for base_indices in halves(runs.len(), splits) {
        let (mut base, mut head) = (Vec::new(), Vec::new());
        for (i, run) in runs.iter().enumerate().take(half * 2) {
            if base_indices.contains(&i) {
                base.push(run.clone());
            } else {
                head.push(run.clone());
            }
        }
        let base = Side::new(format!("{label} (half A)"), vec![], base);
        let head = Side::new(format!("{label} (half B)"), vec![], head);
        let c = Comparison::with_policy(&base, &head, settings, policy);
        check.comparisons += 1;
        check.alarmed += usize::from(c.summary.regressed_metrics > 0);
        check.regressed_metrics += c.summary.regressed_metrics;
        check.judged_metrics += c.summary.compared_metrics;
        for section in c.sections() {
            for row in section.rows() {
                for m in row.metrics.iter().filter(|m| m.verdict == Verdict::Regressed) {
                    *check.offenders.entry(format!("{} / {} / {}", section.name, row.name, m.key)).or_default() += 1;
                }
            }
        }
    }
    check.false_alarm_rate = if check.comparisons == 0 { 0.0 } else { check.alarmed as f64 / check.comparisons as f64 };
    check
}

/// Up to `splits` distinct ways to pick `n / 2` of `n` runs as side A (a split and
/// its mirror count once). Runs are taken in pairs of neighbours (in the order given,
/// the order they ran in for `--git` and for numbered files) and the two of a pair
/// always land on opposite sides, so that a machine drifting slower or faster during
/// the runs affects both sides alike, as ABBA order does for `--git`. The first split
/// is even runs against odd ones; the others are pseudo-random from a fixed seed, so
/// that the check is repeatable.
fn halves(n: usize, splits: usize) -> Vec<Vec<usize>> {
    let pairs = n / 2;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for attempt in 0..splits * 50 {
        if out.len() == splits || pairs == 0 {
            break;
        }
        // Bit p of `flips`: pair p gives its second run to side A.
        let flips: Vec<bool> = (0..pairs).map(|_| attempt > 0 && next() & 1 == 1).collect();
        let a: Vec<usize> = flips.iter().enumerate().map(|(p, &f)| 2 * p + usize::from(f)).collect();
        // A split and its mirror are one: key on the choice with pair 0 unflipped.
        let key: Vec<bool> = flips.iter().map(|&f| f != flips[0]).collect();
        if seen.insert(key) {
            out.push(a);
        }
    }
    out
}

/// The self-check in words, for the table and markdown formats.
pub(crate) fn text(check: &SelfCheck, settings: Settings) -> String {
    let mut out = format!(
        "A/A self-check: {} comparisons of {} against {} runs, drawn from {} runs of one build; settings: \
         minimum effect {}%, noise floor {} ns, alpha {}, error control {}\n",
        check.comparisons,
        check.runs_per_side,
        check.runs_per_side,
        check.runs,
        settings.threshold_pct,
        settings.noise_floor_ns,
        settings.alpha,
        settings.control.name()
    );
    out.push_str(&format!(
        "false alarms: {} of {} comparisons ({:.1}%), {} regressed metrics of {} judged\n",
        check.alarmed,
        check.comparisons,
        check.false_alarm_rate * 100.0,
        check.regressed_metrics,
        check.judged_metrics
    ));
    let mut offenders: Vec<(&String, &usize)> = check.offenders.iter().collect();
    offenders.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (name, n) in offenders.iter().take(10) {
        out.push_str(&format!("  falsely regressed in {n} comparison(s): {name}\n"));
    }
    out.push_str(if check.alarmed == 0 {
        "Result: no false alarm: these settings can be trusted on this machine\n"
    } else {
        "Result: FALSE ALARMS: raise --min-effect or --noise-floor-ns, use more runs, or leave the flagged \
         metrics out in the policy file before trusting a regression verdict\n"
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_are_distinct_and_balanced() {
        let splits = halves(12, 20);
        assert_eq!(splits.len(), 20);
        assert_eq!(splits[0], [0, 2, 4, 6, 8, 10], "first: even runs against odd ones");
        assert!(splits.iter().all(|s| s.len() == 6));
        // Neighbours in time never share a side.
        assert!(splits.iter().all(|s| s.iter().enumerate().all(|(p, &i)| i / 2 == p)));
        let distinct: HashSet<&Vec<usize>> = splits.iter().collect();
        assert_eq!(distinct.len(), 20);
        // 4 runs, 2 pairs: only 2 distinct splits (a split and its mirror are one).
        assert_eq!(halves(4, 20).len(), 2);
        assert!(halves(1, 20).is_empty());
    }
}
