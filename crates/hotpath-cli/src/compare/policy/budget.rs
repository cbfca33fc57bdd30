//! Budgets: absolute limits on one side's figures, checked whatever the baseline did
//! (or with no baseline at all). One budget is `<metric> <op> <value>`:
//! `p99 < 2ms`, `alloc_bytes_per_call <= 0`, `calls <= 20`, `mutexes:lock.contended < 100`.
//!
//! The metric is a short name of a function figure (`avg`, `p99`, `total`, `self`,
//! `calls`; `alloc_bytes_per_call`, `allocs_per_call`, `alloc_bytes`, `allocs`;
//! `ir`, `ir_per_call`, `self_ir`), or `section:key` for any figure of any section.
//! A value may carry a unit matching the figure's (`ns`, `us`, `ms`, `s`; `B`, `KB`,
//! `MB`, `GB`, 1024-based as the report prints them); several runs are checked on
//! their median.

use anyhow::{bail, Context};
use hotpath_model::Unit;
use serde::Serialize;

use crate::compare::side::Side;
use crate::compare::stats::median;

/// A comparison operator of a budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
}

impl Op {
    fn holds(self, value: f64, limit: f64) -> bool {
        match self {
            Self::Lt => value < limit,
            Self::Le => value <= limit,
            Self::Gt => value > limit,
            Self::Ge => value >= limit,
            Self::Eq => value == limit,
        }
    }
}

/// One parsed budget of one row pattern.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    /// The row name, or a glob pattern of row names (`app::*`).
    pub(crate) row: String,
    /// As written in the policy.
    pub(crate) text: String,
    /// Section and metric key: the section is `None` for a short name that
    /// `functions_*` sections share, found in the first that has the row.
    section: Option<String>,
    key: String,
    op: Op,
    limit: f64,
    /// The unit family the limit was written in (checked against the figure's).
    written: Written,
}

/// What the limit's suffix says it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Written {
    Plain,
    Duration,
    Bytes,
}

/// Short names of function figures: (name, section, key).
const ALIASES: [(&str, &str, &str); 12] = [
    ("avg", "functions_timing", "avg_ns"),
    ("total", "functions_timing", "total_ns"),
    ("self", "functions_timing", "self_ns"),
    ("calls", "functions_timing", "calls"),
    ("alloc_bytes_per_call", "functions_alloc", "bytes_avg"),
    ("allocs_per_call", "functions_alloc", "allocs_avg"),
    ("alloc_bytes", "functions_alloc", "bytes_total"),
    ("allocs", "functions_alloc", "allocs_total"),
    ("alloc_count", "functions_alloc", "allocs_total"),
    ("ir", "functions_icount", "ir"),
    ("ir_per_call", "functions_icount", "ir_per_call"),
    ("self_ir", "functions_icount", "self_ir"),
];

impl Budget {
    /// Parses `text` (`p99 < 2ms`) as a budget of rows named `row`.
    pub(crate) fn parse(row: &str, text: &str) -> anyhow::Result<Self> {
        let ops = [("<=", Op::Le), (">=", Op::Ge), ("==", Op::Eq), ("<", Op::Lt), (">", Op::Gt)];
        let Some((at, token, op)) = ops
            .iter()
            .filter_map(|(t, op)| text.find(t).map(|at| (at, *t, *op)))
            .min_by_key(|(at, t, _)| (*at, 2 - t.len()))
        else {
            bail!("budget {text:?} of {row:?}: no comparison (write it like `p99 < 2ms` or `calls <= 100`)");
        };
        let metric = text[..at].trim();
        let value = text[at + token.len()..].trim();
        if metric.is_empty() {
            bail!("budget {text:?} of {row:?}: no metric before `{token}`");
        }
        let (limit, written) = value_of(value).with_context(|| format!("budget {text:?} of {row:?}"))?;
        let (section, key) = if let Some((section, key)) = metric.split_once(':') {
            (Some(section.trim().to_string()), key.trim().to_string())
        } else if let Some((_, section, key)) = ALIASES.iter().find(|(name, _, _)| *name == metric) {
            (Some(section.to_string()), key.to_string())
        } else if is_percentile(metric) {
            (Some("functions_timing".to_string()), format!("percentiles_ns.{metric}"))
        } else {
            (None, metric.to_string())
        };
        Ok(Self { row: row.to_string(), text: text.trim().to_string(), section, key, op, limit, written })
    }
}

fn is_percentile(name: &str) -> bool {
    name.strip_prefix('p').is_some_and(|n| !n.is_empty() && n.parse::<f64>().is_ok())
}

/// `2ms` → 2e6 (a duration, in ns), `4KB` → 4096 (bytes), `100` → 100.
fn value_of(text: &str) -> anyhow::Result<(f64, Written)> {
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_')).unwrap_or(text.len());
    let (number, unit) = (text[..split].replace('_', ""), text[split..].trim());
    let n: f64 = number.parse().map_err(|_| anyhow::anyhow!("{text:?} is not a number with an optional unit"))?;
    let (factor, written) = match unit {
        "" => (1.0, Written::Plain),
        "ns" => (1.0, Written::Duration),
        "us" | "µs" => (1e3, Written::Duration),
        "ms" => (1e6, Written::Duration),
        "s" => (1e9, Written::Duration),
        "B" => (1.0, Written::Bytes),
        "KB" | "KiB" => (1024.0, Written::Bytes),
        "MB" | "MiB" => (1024.0 * 1024.0, Written::Bytes),
        "GB" | "GiB" => (1024.0 * 1024.0 * 1024.0, Written::Bytes),
        other => bail!("unknown unit {other:?} (ns, us, ms, s for durations; B, KB, MB, GB for bytes)"),
    };
    Ok((n * factor, written))
}

/// The outcome of one budget on one row.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Checked {
    pub(crate) row: String,
    pub(crate) budget: String,
    pub(crate) section: Option<String>,
    /// The median over the side's runs, formatted in the figure's unit.
    pub(crate) value: Option<String>,
    pub(crate) passed: bool,
    /// Why it failed without a value (no such row, metric or unit mismatch).
    pub(crate) problem: Option<String>,
}

/// Checks every budget against `side`; a budget whose row pattern matches no row of
/// any section it could apply to fails (a renamed function must not drop its budget).
pub(crate) fn check(budgets: &[Budget], side: &Side) -> Vec<Checked> {
    let mut out = Vec::new();
    for b in budgets {
        let pattern = glob::Pattern::new(&b.row).ok();
        let matches = |name: &str| name == b.row || pattern.as_ref().is_some_and(|p| p.matches(name));
        let mut found = false;
        for (section_name, section) in &side.sections {
            if b.section.as_deref().is_some_and(|s| s != section_name) {
                continue;
            }
            let Some(metric) = section.metrics.find(&b.key) else { continue };
            for (row_name, row) in section.rows.iter().filter(|(name, _)| matches(name)) {
                let Some(values) = row.values_of(metric) else { continue };
                found = true;
                let unit = section.metrics.get(metric).unit;
                let value = median(&values);
                let problem = mismatch(b.written, unit);
                out.push(Checked {
                    row: row_name.clone(),
                    budget: b.text.clone(),
                    section: Some(section_name.clone()),
                    value: Some(unit.format(value)),
                    passed: problem.is_none() && b.op.holds(value, b.limit),
                    problem,
                });
            }
            if found && b.section.is_none() {
                break;
            }
        }
        if !found {
            let place = b.section.as_deref().map_or_else(String::new, |s| format!(" in section {s}"));
            out.push(Checked {
                row: b.row.clone(),
                budget: b.text.clone(),
                section: b.section.clone(),
                value: None,
                passed: false,
                problem: Some(format!("no row matching {:?} with {}{place} in the report", b.row, b.key)),
            });
        }
    }
    out
}

fn mismatch(written: Written, unit: Unit) -> Option<String> {
    let duration = matches!(unit, Unit::Nanoseconds | Unit::Milliseconds);
    match written {
        Written::Duration if !duration => Some(format!("the limit is a duration, the figure is in {}", unit.name())),
        Written::Bytes if unit != Unit::Bytes => Some(format!("the limit is in bytes, the figure in {}", unit.name())),
        _ if duration && unit == Unit::Milliseconds => {
            Some("figures in milliseconds take no budget yet; use a nanosecond figure".into())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::samples::{RunSamples, Section};

    fn side() -> Side {
        let mut timing = Section::default();
        timing.push("app::fast", "calls", "calls", Unit::Count, 20.0);
        timing.push("app::fast", "percentiles_ns.p99", "p99", Unit::Nanoseconds, 1_500_000.0);
        timing.push("app::slow", "percentiles_ns.p99", "p99", Unit::Nanoseconds, 3_000_000.0);
        let mut alloc = Section::default();
        alloc.push("app::fast", "bytes_avg", "bytes_avg", Unit::Bytes, 0.0);
        alloc.push("app::slow", "bytes_avg", "bytes_avg", Unit::Bytes, 64.0);
        let mut run = RunSamples::default();
        run.sections.insert("functions_timing".into(), timing);
        run.sections.insert("functions_alloc".into(), alloc);
        Side::new("head", vec![], vec![run])
    }

    fn passed(row: &str, text: &str) -> Vec<bool> {
        check(&[Budget::parse(row, text).unwrap()], &side()).iter().map(|c| c.passed).collect()
    }

    #[test]
    fn budgets_pass_and_fail_as_written() {
        assert_eq!(passed("app::fast", "p99 < 2ms"), [true]);
        assert_eq!(passed("app::slow", "p99 < 2ms"), [false]);
        assert_eq!(passed("app::fast", "calls <= 20"), [true]);
        assert_eq!(passed("app::fast", "calls < 20"), [false]);
        assert_eq!(passed("app::fast", "alloc_bytes_per_call <= 0"), [true]);
        assert_eq!(passed("app::slow", "alloc_bytes_per_call <= 0"), [false]);
        assert_eq!(passed("app::*", "p99 <= 3ms"), [true, true]);
        assert_eq!(passed("app::slow", "functions_alloc:bytes_avg == 64B"), [true]);
    }

    #[test]
    fn missing_rows_and_wrong_units_fail_with_a_reason() {
        let c = check(&[Budget::parse("app::gone", "calls <= 1").unwrap()], &side());
        assert!(!c[0].passed && c[0].problem.as_deref().unwrap().contains("no row matching"), "{c:?}");
        let c = check(&[Budget::parse("app::fast", "p99 < 2MB").unwrap()], &side());
        assert!(!c[0].passed && c[0].problem.as_deref().unwrap().contains("in bytes"), "{c:?}");
    }

    #[test]
    fn malformed_budgets_are_errors() {
        assert!(Budget::parse("f", "p99 2ms").unwrap_err().to_string().contains("no comparison"));
        assert!(format!("{:#}", Budget::parse("f", "p99 < 2 parsecs").unwrap_err()).contains("unknown unit"));
        assert!(Budget::parse("f", "< 2").is_err());
        let b = Budget::parse("f", "p99.9 <= 1_500us").unwrap();
        assert_eq!((b.key.as_str(), b.limit, b.op), ("percentiles_ns.p99.9", 1_500_000.0, Op::Le));
    }
}
