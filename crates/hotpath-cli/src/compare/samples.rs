//! What one report contributes to a comparison: per section, per row, the values
//! of the metrics that are compared. `functions_timing` is read through its typed
//! model (`timing.rs`); every other section generically (`generic.rs`), so sections
//! added to the report later are compared without changes here.

use hotpath_model::Report;
use indexmap::IndexMap;
use serde_json::Value;

use super::kind::Kind;
use super::{generic, timing};

/// Name of the pseudo-section holding whole-run values (wall time).
pub(crate) const RUN_SECTION: &str = "run";

/// One measured value of one row.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Metric {
    /// Path of the value in the report row (`avg_ns`, `percentiles_ns.p95`).
    pub(crate) key: String,
    /// Short name for tables (`avg`, `p95`).
    pub(crate) label: String,
    pub(crate) kind: Kind,
    pub(crate) value: f64,
}

impl Metric {
    pub(crate) fn new(key: impl Into<String>, label: impl Into<String>, kind: Kind, value: f64) -> Self {
        Self { key: key.into(), label: label.into(), kind, value }
    }
}

/// The rows of one section of one report, in report order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Section {
    pub(crate) rows: IndexMap<String, Vec<Metric>>,
    /// The row limit may have cut rows: a row missing here may still have run.
    pub(crate) truncated: bool,
}

/// Everything compared from one report.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunSamples {
    pub(crate) sections: IndexMap<String, Section>,
}

impl RunSamples {
    /// Reads a report already validated by [`Report::from_json`]; `raw` is the same
    /// text as a JSON value, which keeps the sections this build has no type for.
    /// Builds the samples of one report. Sections describing the machine and the
    /// process rather than the code (see [`NOT_COMPARED`]) are left out.
    pub(crate) fn from_report(report: &Report, raw: &Value) -> Self {
        let mut sections = IndexMap::new();
        let mut run = Section::default();
        let wall = Metric::new("wall_ns", "wall", Kind::Duration, report.meta.wall_ns as f64);
        run.rows.insert(report.meta.caller.clone(), vec![wall]);
        sections.insert(RUN_SECTION.to_string(), run);
        if let Some(t) = &report.functions_timing {
            sections.insert(timing::SECTION.to_string(), timing::section(t));
        }
        if let Some(map) = raw.as_object() {
            for (key, value) in map {
                if matches!(key.as_str(), "schema_version" | "meta" | timing::SECTION)
                    || NOT_COMPARED.contains(&key.as_str())
                {
                    continue;
                }
                if let Some(section) = generic::section(key, value, report.meta.limit) {
                    sections.insert(key.clone(), section);
                }
            }
        }
        Self { sections }
    }

    /// True when no section but the run's own holds a row.
    pub(crate) fn has_measurements(&self) -> bool {
        self.sections.iter().any(|(name, s)| name != RUN_SECTION && !s.rows.is_empty())
    }
}

/// Sections that describe the run's environment (thread scheduling, RSS, CPU sampling
/// noise) rather than the code's cost, so a difference there is no regression.
/// Their per-thread rows are not even stable across runs (`thread_N` names).
const NOT_COMPARED: [&str; 2] = ["threads", "functions_cpu"];

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = r#"{
        "schema_version": 1,
        "meta": {"hotpath_version": "0.23.0", "caller": "app::main", "pid": 1, "started_unix_ms": 0,
                 "wall_ns": 5000, "ended_by": "main_returned", "percentiles": [50.0], "limit": 0,
                 "clock": "tsc", "dropped": 0},
        "functions_timing": {"total_functions": 1, "rows": [
            {"name": "app::f", "file": "src/main.rs", "line": 3, "is_async": false, "calls": 2, "cancelled": 0,
             "polls": 0, "busy_ns": 0, "total_ns": 400, "self_ns": 300, "avg_ns": 200, "min_ns": 100,
             "max_ns": 300, "percentiles_ns": {"p50": 190}}]},
        "custom_alloc": {"total_functions": 1, "rows": [
            {"name": "app::f", "alloc_bytes": 4096, "alloc_count": 3, "line": 3}]}
    }"#;

    #[test]
    fn keeps_typed_and_unknown_sections() {
        let report = Report::from_json(REPORT).unwrap();
        let raw: Value = serde_json::from_str(REPORT).unwrap();
        let samples = RunSamples::from_report(&report, &raw);
        let names: Vec<&String> = samples.sections.keys().collect();
        assert_eq!(names, ["run", "functions_timing", "custom_alloc"]);
        assert_eq!(samples.sections["run"].rows["app::main"][0].value, 5000.0);
        let alloc = &samples.sections["custom_alloc"].rows["app::f"];
        let keys: Vec<(&str, Kind)> = alloc.iter().map(|m| (m.key.as_str(), m.kind)).collect();
        assert_eq!(keys, [("alloc_bytes", Kind::Bytes), ("alloc_count", Kind::Count)]);
        assert!(samples.has_measurements());
    }

    #[test]
    fn a_report_without_rows_has_no_measurements() {
        let mut report = Report::from_json(REPORT).unwrap();
        report.functions_timing = None;
        let samples = RunSamples::from_report(&report, &serde_json::json!({}));
        assert!(!samples.has_measurements());
    }
}
