//! Error control across every metric a comparison tests. A comparison tests
//! hundreds of metrics; at alpha = 0.05 each, a few would come out "significant" on
//! identical code. The p-values are adjusted over the whole family before any
//! verdict: Holm (the default) bounds the chance of even one false alarm (the
//! family-wise error), which is what matters for a CI gate that fails a build on any
//! regression; Benjamini-Hochberg bounds the expected share of false alarms among
//! the changes reported (more power when a change moves many metrics at once).

use serde::Serialize;

use super::stats::min_p_value;

/// `--error-control`: how p-values are adjusted for testing many metrics at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ErrorControl {
    /// Holm-Bonferroni: family-wise error rate at alpha (no false alarm with
    /// probability 1 - alpha when nothing changed).
    #[default]
    Holm,
    /// Benjamini-Hochberg: false discovery rate at alpha.
    Bh,
    /// No adjustment: every metric at alpha on its own (many false alarms).
    None,
}

impl ErrorControl {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Holm => "holm",
            Self::Bh => "bh",
            Self::None => "none",
        }
    }

    /// `holm`, `bh` or `none`, as a policy file spells it.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "holm" => Some(Self::Holm),
            "bh" | "benjamini-hochberg" => Some(Self::Bh),
            "none" => Some(Self::None),
            _ => None,
        }
    }
}

/// The raw p-values of one comparison's tests, sorted, with their adjusted values.
#[derive(Clone, Debug, Default)]
pub(crate) struct Family {
    /// `(raw, adjusted)`, ascending by raw p-value; equal raw values share one adjusted value.
    adjusted: Vec<(f64, f64)>,
}

impl Family {
    pub(crate) fn new(control: ErrorControl, mut raw: Vec<f64>) -> Self {
        raw.sort_by(f64::total_cmp);
        let m = raw.len() as f64;
        let mut adjusted: Vec<(f64, f64)> = raw.iter().map(|&p| (p, p)).collect();
        match control {
            ErrorControl::None => {}
            ErrorControl::Holm => {
                let mut running = 0.0f64;
                for (i, pair) in adjusted.iter_mut().enumerate() {
                    running = running.max((m - i as f64) * pair.0);
                    pair.1 = running.min(1.0);
                }
            }
            ErrorControl::Bh => {
                let mut running = 1.0f64;
                for (i, pair) in adjusted.iter_mut().enumerate().rev() {
                    running = running.min(m / (i + 1) as f64 * pair.0);
                    pair.1 = running.min(1.0);
                }
            }
        }
        Self { adjusted }
    }

    /// Number of metrics tested.
    pub(crate) fn tests(&self) -> usize {
        self.adjusted.len()
    }

    /// The adjusted value of raw p-value `p` (one of the family's).
    pub(crate) fn adjust(&self, p: f64) -> f64 {
        let i = self.adjusted.partition_point(|(raw, _)| *raw < p);
        match self.adjusted.get(i) {
            Some(&(raw, adjusted)) if raw == p => adjusted,
            // Not a member: judged as strictly as the family's strictest test.
            _ => (p * self.tests().max(1) as f64).min(1.0),
        }
    }
}

/// The smallest number of runs per side with which one changed metric among `tests`
/// tested ones can reach significance at `alpha` after `control`: the Mann-Whitney
/// test's smallest possible p-value with n runs per side, 2 / C(2n, n), must be at
/// most alpha (alpha / tests under Holm, and under BH for a lone change).
pub(crate) fn runs_needed(alpha: f64, control: ErrorControl, tests: usize) -> usize {
    let level = match control {
        ErrorControl::None => alpha,
        ErrorControl::Holm | ErrorControl::Bh => alpha / tests.max(1) as f64,
    };
    (2..200).find(|&n| min_p_value(n, n) <= level).unwrap_or(200)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_multiplies_by_the_remaining_count_and_keeps_order() {
        let f = Family::new(ErrorControl::Holm, vec![0.04, 0.01, 0.03, 0.5]);
        // Sorted 0.01, 0.03, 0.04, 0.5 -> 0.04, 0.09, 0.09 (monotone), 0.5.
        assert!((f.adjust(0.01) - 0.04).abs() < 1e-12);
        assert!((f.adjust(0.03) - 0.09).abs() < 1e-12);
        assert!((f.adjust(0.04) - 0.09).abs() < 1e-12);
        assert!((f.adjust(0.5) - 0.5).abs() < 1e-12);
        assert_eq!(f.tests(), 4);
    }

    #[test]
    fn benjamini_hochberg_steps_up() {
        let f = Family::new(ErrorControl::Bh, vec![0.01, 0.04, 0.03, 0.5]);
        // m/i * p: 0.04, 0.06, 0.0533, 0.5; cumulative minimum from the top.
        assert!((f.adjust(0.01) - 0.04).abs() < 1e-12);
        assert!((f.adjust(0.03) - 0.04 * 4.0 / 3.0).abs() < 1e-12);
        assert!((f.adjust(0.04) - 0.04 * 4.0 / 3.0).abs() < 1e-12);
        assert!((f.adjust(0.5) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn ties_share_one_adjusted_value_and_none_keeps_raw() {
        let f = Family::new(ErrorControl::Holm, vec![0.02, 0.02, 0.02]);
        assert!((f.adjust(0.02) - 0.06).abs() < 1e-12);
        let none = Family::new(ErrorControl::None, vec![0.02, 0.3]);
        assert_eq!(none.adjust(0.02), 0.02);
    }

    #[test]
    fn runs_needed_grows_with_the_family() {
        // One test at 0.05: 4 runs per side (2/70 = 0.029).
        assert_eq!(runs_needed(0.05, ErrorControl::Holm, 1), 4);
        assert_eq!(runs_needed(0.05, ErrorControl::None, 156), 4);
        // 156 tests: 0.05/156 = 3.2e-4: 2/C(14,7) = 5.8e-4 too big, 2/C(16,8) = 1.6e-4.
        assert_eq!(runs_needed(0.05, ErrorControl::Holm, 156), 8);
    }
}
