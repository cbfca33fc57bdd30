//! The comparison of two sides: every section, row and metric with its verdict.
//! This is what the renderers print and what `--format json` serializes (`json.rs`).
//!
//! Up front, one pass gathers the p-value of every metric tested (the family whose
//! error `family.rs` controls) and a second counts the verdicts; the rows are judged
//! again as a renderer walks them (`rows.rs`), so that the memory of a comparison is
//! that of its two sides, whatever the size of the reports.

mod json;
mod rows;

use std::cell::RefCell;

use serde::Serialize;

use super::family::Family;
use super::notes;
use super::policy::budget::{self, Checked};
use super::policy::Policy;
use super::side::{Side, SideSection};
use super::stats::MannWhitney;
use super::verdict::{Method, Settings, Verdict};
use rows::{Judge, Located};
pub(crate) use rows::{MetricDiff, RowDiff, RowStatus};

/// Version of the `--format json` output; bumped when a field changes meaning.
pub(crate) const COMPARE_VERSION: u32 = 2;

/// How noisy values are tested, as the output states it.
pub(crate) const TEST: &str = "Mann-Whitney U, two-sided, on per-run values";

pub(crate) struct Comparison<'a> {
    pub(crate) base: &'a Side,
    pub(crate) head: &'a Side,
    pub(crate) settings: Settings,
    /// Caveats about this comparison, one sentence each.
    pub(crate) notes: Vec<String>,
    pub(crate) summary: Summary,
    /// Every metric tested, for error control.
    pub(crate) family: Family,
    /// The policy file's per-section choices, if one is used.
    pub(crate) policy: Option<&'a Policy>,
    /// The policy's budgets checked on head.
    pub(crate) budgets: Vec<Checked>,
    mw: RefCell<MannWhitney>,
}

/// Counts over the whole comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Summary {
    /// Metrics judged regressed, and the rows they belong to.
    pub(crate) regressed_metrics: usize,
    pub(crate) regressed_rows: usize,
    pub(crate) improved_metrics: usize,
    pub(crate) improved_rows: usize,
    pub(crate) inconclusive_metrics: usize,
    pub(crate) added_rows: usize,
    pub(crate) removed_rows: usize,
    pub(crate) compared_metrics: usize,
    /// Metrics given a statistical test (the family of the error control).
    pub(crate) tested_metrics: usize,
    /// Metrics shown but never judged (extremes, settings).
    pub(crate) informational_metrics: usize,
    /// Budgets of the policy checked on head, and those that failed.
    pub(crate) budgets_checked: usize,
    pub(crate) budgets_failed: usize,
}

impl Summary {
    /// A regression or a failed budget: what `--fail-on-regression` fails on.
    pub(crate) fn failed(&self) -> bool {
        self.regressed_metrics > 0 || self.budgets_failed > 0
    }
}

/// One section of the comparison; its rows are judged as they are iterated.
pub(crate) struct SectionDiff<'c> {
    pub(crate) name: &'c str,
    base: Option<&'c SideSection>,
    head: Option<&'c SideSection>,
    judge: Judge<'c>,
}

impl<'a> Comparison<'a> {
    /// Compares every section, row and metric of `head` against `base`.
    #[cfg(test)]
    pub(crate) fn new(base: &'a Side, head: &'a Side, settings: Settings) -> Self {
        Self::with_policy(base, head, settings, None)
    }

    /// Compares with the per-section choices and budgets of `policy`.
    pub(crate) fn with_policy(base: &'a Side, head: &'a Side, settings: Settings, policy: Option<&'a Policy>) -> Self {
        let family = Family::new(settings.control, Vec::new());
        let mut c = Self {
            base,
            head,
            settings,
            notes: Vec::new(),
            summary: Summary::default(),
            family,
            policy,
            budgets: Vec::new(),
            mw: RefCell::default(),
        };
        let raw = tested_p_values(&c);
        c.family = Family::new(settings.control, raw);
        c.notes = notes::notes(base, head, settings, c.family.tests());
        c.summary = summarize(&c);
        if let Some(policy) = policy {
            c.budgets = budget::check(&policy.budgets, head);
            c.summary.budgets_checked = c.budgets.len();
            c.summary.budgets_failed = c.budgets.iter().filter(|b| !b.passed).count();
        }
        c
    }

    /// The sections: head's in order, then those only in base.
    pub(crate) fn sections(&self) -> impl Iterator<Item = SectionDiff<'_>> + '_ {
        let (base, head) = (&self.base.sections, &self.head.sections);
        let names = head.keys().chain(base.keys().filter(|k| !head.contains_key(*k)));
        names.map(move |name| {
            let section = self.policy.and_then(|p| p.sections.get(name.as_str()));
            let mut settings = self.settings;
            if let Some(pct) = section.and_then(|s| s.min_change_pct) {
                settings.threshold_pct = pct;
            }
            let judged = section.and_then(|s| s.judge.as_deref());
            SectionDiff {
                name,
                base: base.get(name),
                head: head.get(name),
                judge: Judge { settings, mw: &self.mw, family: &self.family, judged },
            }
        })
    }
}

impl<'c> SectionDiff<'c> {
    /// Rows on either side.
    pub(crate) fn row_count(&self) -> usize {
        let head = self.head.map_or(0, |h| h.rows.len());
        let base_only = self.base.map_or(0, |b| b.rows.keys().filter(|k| !self.in_head(k)).count());
        head + base_only
    }

    fn in_head(&self, name: &str) -> bool {
        self.head.is_some_and(|h| h.rows.contains_key(name))
    }

    /// The rows: head's in order, then those only in base.
    pub(crate) fn rows(&self) -> impl Iterator<Item = RowDiff<'c>> + '_ {
        let head_rows = self.head.into_iter().flat_map(|h| h.rows.keys());
        let base_only = self.base.into_iter().flat_map(|b| b.rows.keys()).filter(|k| !self.in_head(k));
        head_rows.chain(base_only).map(|name| {
            let find =
                |s: Option<&'c SideSection>| -> Option<Located<'c>> { s.and_then(|s| Some((s, s.rows.get(name)?))) };
            let (b, h) = (find(self.base), find(self.head));
            let cut = |s: Option<&SideSection>| s.is_some_and(|s| s.truncated);
            // A row on one side only may be beyond the other side's row limit.
            let other_cut = if b.is_none() { cut(self.base) } else { cut(self.head) };
            self.judge.row(name, b, h, other_cut)
        })
    }
}

/// The raw p-value of every metric the comparison tests.
fn tested_p_values(c: &Comparison<'_>) -> Vec<f64> {
    let mut raw = Vec::new();
    for section in c.sections() {
        for row in section.rows() {
            raw.extend(row.metrics.iter().filter(|m| m.method == Some(Method::MannWhitney)).filter_map(|m| m.p_value));
        }
    }
    raw
}

fn summarize(c: &Comparison<'_>) -> Summary {
    let mut s = Summary::default();
    for section in c.sections() {
        for row in section.rows() {
            count(&mut s, &row);
        }
    }
    s
}

fn count(s: &mut Summary, row: &RowDiff<'_>) {
    {
        match row.status {
            RowStatus::Added => s.added_rows += 1,
            RowStatus::Removed => s.removed_rows += 1,
            RowStatus::Compared | RowStatus::OutsideLimit => {}
        }
        s.regressed_rows += usize::from(row.has(Verdict::Regressed));
        s.improved_rows += usize::from(row.has(Verdict::Improved));
        for m in &row.metrics {
            s.compared_metrics += usize::from(m.method.is_some_and(|m| m != Method::NotJudged));
            s.tested_metrics += usize::from(m.method == Some(Method::MannWhitney));
            s.informational_metrics += usize::from(m.method == Some(Method::NotJudged));
            match m.verdict {
                Verdict::Regressed => s.regressed_metrics += 1,
                Verdict::Improved => s.improved_metrics += 1,
                Verdict::Inconclusive => s.inconclusive_metrics += 1,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests;
