//! Printers of a [`Comparison`]: a terminal table, GitHub-flavoured markdown for a
//! pull-request comment, and JSON. The first two share the choice of lines and the
//! cell texts below; JSON is the comparison serialized as is.

mod markdown;
mod table;

use super::diff::{Comparison, MetricDiff, RowDiff, RowStatus};
use super::verdict::{Method, Verdict};

pub(crate) use markdown::render as markdown;
pub(crate) use table::render as table;

/// The comparison as indented JSON, with a final newline.
pub(crate) fn json(c: &Comparison) -> String {
    // Only strings, integers and finite floats: serialization cannot fail.
    serde_json::to_string_pretty(c).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")) + "\n"
}

/// One printed line of a section table.
pub(super) struct Line {
    pub(super) name: String,
    pub(super) metric: String,
    pub(super) base: String,
    pub(super) head: String,
    pub(super) change: String,
    pub(super) verdict: Verdict,
    /// Verdict words plus how it was reached: `regressed (p = 0.008)`.
    pub(super) verdict_text: String,
}

impl Line {
    fn same_values(&self, other: &Line) -> bool {
        (&self.name, &self.base, &self.head, &self.change, &self.verdict_text)
            == (&other.name, &other.base, &other.head, &other.change, &other.verdict_text)
    }
}

/// The lines of one section worth printing, and how many compared metrics were left out.
pub(super) fn lines(rows: &[RowDiff], all: bool) -> (Vec<Line>, usize) {
    let mut out = Vec::new();
    let mut hidden = 0;
    for row in rows {
        if row.status != RowStatus::Compared {
            // A row on one side only is one line; its values are in the JSON output.
            let verdict = row.metrics.first().map_or(Verdict::Added, |m| m.verdict);
            out.push(Line {
                name: row.name.clone(),
                metric: "-".into(),
                base: "-".into(),
                head: "-".into(),
                change: "-".into(),
                verdict,
                verdict_text: verdict.text().into(),
            });
            continue;
        }
        for m in &row.metrics {
            if !(all || is_notable(m.verdict)) {
                hidden += 1;
                continue;
            }
            let next = line(&row.name, m);
            // Metrics of one row with the very same values and verdict share a line: a
            // function called once has avg = p50 = p95 = total.
            match out.last_mut() {
                Some(prev) if prev.same_values(&next) => prev.metric = format!("{}, {}", prev.metric, next.metric),
                _ => out.push(next),
            }
        }
    }
    (out, hidden)
}

fn is_notable(verdict: Verdict) -> bool {
    !matches!(verdict, Verdict::Unchanged | Verdict::WithinThreshold)
}

fn line(name: &str, m: &MetricDiff) -> Line {
    let value = |s: &Option<super::verdict::Stats>| s.as_ref().map_or_else(|| "-".into(), |s| m.kind.format(s.median));
    Line {
        name: name.to_string(),
        metric: m.label.clone(),
        base: value(&m.base),
        head: value(&m.head),
        change: change(m),
        verdict: m.verdict,
        verdict_text: verdict_text(m),
    }
}

/// `+12.5%`, or with the factor for large changes: `+1900% (20.0x)`.
fn change(m: &MetricDiff) -> String {
    match (m.change_pct, &m.base, &m.head) {
        (Some(c), _, _) if c >= 100.0 => format!("+{c:.0}% ({:.1}x)", 1.0 + c / 100.0),
        (Some(c), _, _) => format!("{c:+.1}%"),
        (None, Some(_), Some(_)) => "from 0".into(),
        (None, _, _) => "-".into(),
    }
}

fn verdict_text(m: &MetricDiff) -> String {
    let how = match (m.method, m.p_value) {
        (Some(Method::MannWhitney), Some(p)) => format!(" (p = {})", format_p(p)),
        (Some(Method::SingleRun), _) => " (single run)".into(),
        // Exact values that differ between runs of one side, with overlapping ranges.
        (Some(Method::Exact), _) if m.verdict == Verdict::Inconclusive => " (runs vary)".into(),
        (Some(Method::Exact), _) if m.verdict != Verdict::Unchanged => " (exact)".into(),
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
pub(super) fn section_title(name: &str) -> String {
    name.replace('_', "-")
}

/// Header of the name column for a section.
pub(super) fn name_header(section: &str) -> &'static str {
    if section.starts_with("functions") {
        "Function"
    } else {
        "Name"
    }
}

/// `1 run`, `5 runs`.
pub(super) fn runs_text(runs: usize) -> String {
    format!("{runs} run{}", if runs == 1 { "" } else { "s" })
}

/// The one-line result, such as `2 regressed metrics in 1 row; 0 improved; 1 added, 0 removed`.
pub(super) fn result_text(c: &Comparison) -> String {
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
    )
}

#[cfg(test)]
pub(super) mod fixture {
    //! A small comparison used by the renderer tests.
    use crate::compare::diff::{compare, Comparison};
    use crate::compare::kind::Kind;
    use crate::compare::samples::{Metric, RunSamples, Section};
    use crate::compare::side::Side;
    use crate::compare::verdict::Settings;

    fn run(avg: f64, extra: Option<&str>) -> RunSamples {
        let mut section = Section::default();
        let metrics = |avg: f64| {
            vec![Metric::new("calls", "calls", Kind::Count, 10.0), Metric::new("avg_ns", "avg", Kind::Duration, avg)]
        };
        section.rows.insert("app::work<T>".into(), metrics(avg));
        section.rows.insert("app::steady|x".into(), metrics(1_000.0));
        if let Some(name) = extra {
            section.rows.insert(name.into(), metrics(5.0));
        }
        let mut r = RunSamples::default();
        r.sections.insert("functions_timing".into(), section);
        r
    }

    pub(crate) fn comparison() -> Comparison {
        let base: Vec<_> = (0..5).map(|i| run(1_000_000.0 + f64::from(i), Some("app::old"))).collect();
        let head: Vec<_> = (0..5).map(|i| run(20_000_000.0 + f64::from(i), Some("app::new"))).collect();
        let settings = Settings { threshold_pct: 10.0, alpha: 0.05 };
        compare(&Side::new("main", vec![], base), &Side::new("HEAD", vec![], head), settings)
    }
}
