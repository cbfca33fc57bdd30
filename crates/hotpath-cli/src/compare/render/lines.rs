//! What the table and markdown printers share: which lines to print and their cells.
//! Cell texts here are raw; each printer escapes them for its format (`escape.rs`).

use crate::compare::diff::{Comparison, MetricDiff, RowStatus, SectionDiff};
use crate::compare::verdict::{Method, Stats, Verdict};

/// One printed line of a section table.
pub(crate) struct Line {
    pub(crate) name: String,
    pub(crate) metric: String,
    pub(crate) base: String,
    pub(crate) head: String,
    pub(crate) change: String,
    pub(crate) verdict: Verdict,
    /// Verdict words plus how it was reached: `regressed (p = 0.008)`.
    pub(crate) verdict_text: String,
}

impl Line {
    fn same_values(&self, other: &Line) -> bool {
        (&self.name, &self.base, &self.head, &self.change, &self.verdict_text)
            == (&other.name, &other.base, &other.head, &other.change, &other.verdict_text)
    }
}

/// The lines of one section worth printing.
pub(crate) struct Lines {
    pub(crate) lines: Vec<Line>,
    /// Compared metrics left out as unchanged or within the threshold.
    pub(crate) hidden: usize,
    /// Lines past `max`, counted but not kept.
    pub(crate) more: usize,
}

/// The lines of `section`: every metric with `all`, else only the notable ones; at
/// most `max` lines are kept.
pub(crate) fn lines(section: &SectionDiff<'_>, all: bool, max: usize) -> Lines {
    let mut out = Lines { lines: Vec::new(), hidden: 0, more: 0 };
    for row in section.rows() {
        if row.status != RowStatus::Compared {
            // A row on one side only is one line; its values are in the JSON output.
            let verdict = row.metrics.first().map_or(Verdict::Added, |m| m.verdict);
            let dash = || "-".to_string();
            let line = Line {
                name: row.name.to_string(),
                metric: dash(),
                base: dash(),
                head: dash(),
                change: dash(),
                verdict,
                verdict_text: verdict.text().into(),
            };
            out.push(line, max);
            continue;
        }
        for m in &row.metrics {
            if !(all || is_notable(m.verdict)) {
                out.hidden += 1;
                continue;
            }
            let next = line(row.name, m);
            // Metrics of one row with the very same values and verdict share a line: a
            // function called once has avg = p50 = p95 = total.
            match out.lines.last_mut() {
                Some(prev) if out.more == 0 && prev.same_values(&next) => {
                    prev.metric = format!("{}, {}", prev.metric, next.metric)
                }
                _ => out.push(next, max),
            }
        }
    }
    out
}

impl Lines {
    fn push(&mut self, line: Line, max: usize) {
        if self.lines.len() < max {
            self.lines.push(line);
        } else {
            self.more += 1;
        }
    }
}

fn is_notable(verdict: Verdict) -> bool {
    !matches!(verdict, Verdict::Unchanged | Verdict::WithinThreshold | Verdict::NotJudged)
}

fn line(name: &str, m: &MetricDiff<'_>) -> Line {
    let value = |s: &Option<Stats>| s.as_ref().map_or_else(|| "-".into(), |s| m.unit.format(s.median));
    Line {
        name: name.to_string(),
        metric: m.label.to_string(),
        base: value(&m.base),
        head: value(&m.head),
        change: change(m),
        verdict: m.verdict,
        verdict_text: verdict_text(m),
    }
}

/// `+12.5%`, or with the factor for large changes: `+1900% (20.0x)`.
fn change(m: &MetricDiff<'_>) -> String {
    match (m.change_pct, &m.base, &m.head) {
        (Some(c), _, _) if c >= 100.0 => format!("+{c:.0}% ({:.1}x)", 1.0 + c / 100.0),
        (Some(c), _, _) => format!("{c:+.1}%"),
        (None, Some(_), Some(_)) => "from 0".into(),
        (None, _, _) => "-".into(),
    }
}

fn verdict_text(m: &MetricDiff<'_>) -> String {
    let varies = if m.why.is_some() { "runs vary, tested: " } else { "" };
    let how = match (m.method, m.p_value, m.adjusted_p) {
        (Some(Method::MannWhitney), Some(p), Some(adj)) if adj != p => {
            format!(" ({varies}p = {}, adjusted {})", format_p(p), format_p(adj))
        }
        (Some(Method::MannWhitney), Some(p), _) => format!(" ({varies}p = {})", format_p(p)),
        (Some(Method::SingleRun), _, _) if m.verdict != Verdict::Unchanged => format!(" ({varies}single run)"),
        (Some(Method::Exact), _, _) if m.verdict != Verdict::Unchanged => " (exact)".into(),
        _ => String::new(),
    };
    format!("{}{how}", m.verdict.text())
}

/// Three significant digits, without a long tail of zeros for tiny p-values.
fn format_p(p: f64) -> String {
    if p < 0.001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

/// Display name of a section: the report key with dashes, as the report tables title it.
pub(crate) fn section_title(name: &str) -> String {
    name.replace('_', "-")
}

/// Header of the name column for a section.
pub(crate) fn name_header(section: &str) -> &'static str {
    if section.starts_with("functions") {
        "Function"
    } else {
        "Name"
    }
}

/// The settings the verdicts follow, in one line.
pub(crate) fn settings_text(c: &Comparison<'_>) -> String {
    let s = &c.settings;
    format!(
        "minimum effect {}%, noise floor {} ns (instruction counts {}%); timing: {} (alpha {}, error control {} over \
         {} tested metrics)",
        s.threshold_pct,
        s.noise_floor_ns,
        s.icount_threshold_pct,
        crate::compare::diff::TEST,
        s.alpha,
        s.control.name(),
        c.family.tests()
    )
}

/// `1 run`, `5 runs`.
pub(crate) fn runs_text(runs: usize) -> String {
    format!("{runs} run{}", if runs == 1 { "" } else { "s" })
}

/// The one-line result, such as `2 regressed metrics in 1 row; 0 improved; 1 added, 0 removed`.
pub(crate) fn result_text(c: &Comparison<'_>) -> String {
    let s = &c.summary;
    format!(
        "{} regressed metric{} in {} row{}; {} improved; {} inconclusive; {} added, {} removed (of {} compared metrics)",
        s.regressed_metrics,
        if s.regressed_metrics == 1 { "" } else { "s" },
        s.regressed_rows,
        if s.regressed_rows == 1 { "" } else { "s" },
        s.improved_metrics,
        s.inconclusive_metrics,
        s.added_rows,
        s.removed_rows,
        s.compared_metrics,
    ) + &budget_text(s)
}

fn budget_text(s: &crate::compare::diff::Summary) -> String {
    if s.budgets_checked == 0 {
        return String::new();
    }
    format!("; {} of {} budgets failed", s.budgets_failed, s.budgets_checked)
}
