//! The diff of one row: each metric of base and head matched by key and judged.
//! Built on demand, while a renderer walks the comparison, so a comparison of large
//! reports holds only the two sides in memory.

use std::cell::RefCell;

use hotpath_model::{Judging, Unit};
use serde::{Serialize, Serializer};

use crate::compare::family::Family;
use crate::compare::kind::Kind;
use crate::compare::samples::MetricInfo;
use crate::compare::side::{SideRow, SideSection};
use crate::compare::stats::MannWhitney;
use crate::compare::verdict::{judge, Method, Settings, Stats, Verdict};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum RowStatus {
    /// On both sides.
    Compared,
    /// Only in head.
    Added,
    /// Only in base.
    Removed,
    /// On one side only, and the other side's reports were cut by their row limit.
    OutsideLimit,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct RowDiff<'c> {
    pub(crate) name: &'c str,
    pub(crate) status: RowStatus,
    pub(crate) metrics: Vec<MetricDiff<'c>>,
}

impl RowDiff<'_> {
    pub(crate) fn has(&self, verdict: Verdict) -> bool {
        self.metrics.iter().any(|m| m.verdict == verdict)
    }
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct MetricDiff<'c> {
    pub(crate) key: &'c str,
    pub(crate) label: &'c str,
    pub(crate) kind: Kind,
    #[serde(serialize_with = "unit_name")]
    pub(crate) unit: Unit,
    /// Exact, statistical or informational, from the model's table.
    #[serde(serialize_with = "judging_name")]
    pub(crate) judging: Judging,
    pub(crate) base: Option<Stats>,
    pub(crate) head: Option<Stats>,
    pub(crate) change_pct: Option<f64>,
    pub(crate) method: Option<Method>,
    pub(crate) p_value: Option<f64>,
    /// The p-value adjusted over every metric tested; the verdict uses this one.
    pub(crate) adjusted_p: Option<f64>,
    /// Why an exact figure was tested instead of compared exactly.
    pub(crate) why: Option<&'static str>,
    pub(crate) verdict: Verdict,
}

fn unit_name<S: Serializer>(unit: &Unit, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(unit.name())
}

fn judging_name<S: Serializer>(judging: &Judging, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(judging_text(*judging))
}

/// `exact`, `statistical` or `informational`.
pub(crate) fn judging_text(judging: Judging) -> &'static str {
    match judging {
        Judging::Exact => "exact",
        Judging::Statistical => "statistical",
        _ => "informational",
    }
}

/// A row and the section it belongs to, on one side.
pub(crate) type Located<'c> = (&'c SideSection, &'c SideRow);

/// What a row is compared with.
pub(crate) struct Judge<'c> {
    pub(crate) settings: Settings,
    pub(crate) mw: &'c RefCell<MannWhitney>,
    /// The p-values of every metric tested (empty while they are being gathered).
    pub(crate) family: &'c Family,
    /// The policy's list of metrics judged in this section (keys or labels); the
    /// others are informational. `None`: every metric.
    pub(crate) judged: Option<&'c [String]>,
}

impl Judge<'_> {
    /// The diff of row `name`: compared when on both sides; else one-sided, and
    /// `outside limit` when the other side's section was cut (`other_cut`).
    pub(crate) fn row<'c>(
        &self,
        name: &'c str,
        base: Option<Located<'c>>,
        head: Option<Located<'c>>,
        other_cut: bool,
    ) -> RowDiff<'c> {
        match (base, head) {
            (Some(b), Some(h)) => RowDiff { name, status: RowStatus::Compared, metrics: self.metrics(b, h) },
            (Some(only), None) => one_sided(name, only, true, other_cut),
            (None, Some(only)) => one_sided(name, only, false, other_cut),
            (None, None) => RowDiff { name, status: RowStatus::Compared, metrics: Vec::new() },
        }
    }

    /// Head's metrics in order, then those only in base.
    fn metrics<'c>(&self, (bs, br): Located<'c>, (hs, hr): Located<'c>) -> Vec<MetricDiff<'c>> {
        let mut out = Vec::new();
        for (id, head) in hr.series() {
            let info = hs.metrics.get(id);
            let base = bs.metrics.find(&info.key).and_then(|b| br.values_of(b));
            out.push(match base {
                Some(base) => self.both(info, &base, &head),
                None => one_metric(info, head, false),
            });
        }
        for (id, base) in br.series() {
            let info = bs.metrics.get(id);
            if hs.metrics.find(&info.key).and_then(|h| hr.values_of(h)).is_none() {
                out.push(one_metric(info, base, true));
            }
        }
        out
    }

    fn both<'c>(&self, info: &'c MetricInfo, base: &[f64], head: &[f64]) -> MetricDiff<'c> {
        let kind = Kind::of(info.unit);
        let listed = |list: &[String]| list.iter().any(|k| *k == info.key || *k == info.label);
        let judging =
            if self.judged.is_some_and(|list| !listed(list)) { Judging::Informational } else { info.judging() };
        let adjust = |p| self.family.adjust(p);
        let mut settings = self.settings;
        if info.unit == Unit::Milliseconds {
            // The noise floor is in nanoseconds; these values are not.
            settings.noise_floor_ns /= 1e6;
        }
        let j = judge(kind, judging, (base, head), settings, &mut self.mw.borrow_mut(), &adjust);
        MetricDiff {
            key: &info.key,
            label: &info.label,
            kind,
            unit: info.unit,
            judging,
            base: Some(j.base),
            head: Some(j.head),
            change_pct: j.change_pct,
            method: Some(j.method),
            p_value: j.p_value,
            adjusted_p: j.adjusted_p,
            why: j.why,
            verdict: j.verdict,
        }
    }
}

fn one_metric(info: &MetricInfo, values: Vec<f64>, is_base: bool) -> MetricDiff<'_> {
    let stats = Some(Stats::of(&values));
    let (base, head) = if is_base { (stats, None) } else { (None, stats) };
    MetricDiff {
        key: &info.key,
        label: &info.label,
        kind: Kind::of(info.unit),
        unit: info.unit,
        judging: info.judging(),
        base,
        head,
        change_pct: None,
        method: None,
        p_value: None,
        adjusted_p: None,
        why: None,
        verdict: if is_base { Verdict::Removed } else { Verdict::Added },
    }
}

/// A row on one side only; `other_cut` says the other side may have hidden it.
fn one_sided<'c>(name: &'c str, (section, row): Located<'c>, is_base: bool, other_cut: bool) -> RowDiff<'c> {
    let status = match (other_cut, is_base) {
        (true, _) => RowStatus::OutsideLimit,
        (false, true) => RowStatus::Removed,
        (false, false) => RowStatus::Added,
    };
    let metrics = row
        .series()
        .map(|(id, values)| {
            let mut m = one_metric(section.metrics.get(id), values, is_base);
            if other_cut {
                m.verdict = Verdict::OutsideLimit;
            }
            m
        })
        .collect();
    RowDiff { name, status, metrics }
}
