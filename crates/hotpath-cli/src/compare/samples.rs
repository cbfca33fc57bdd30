//! What one report contributes to a comparison: per section, per row, the values
//! of the metrics that are compared. The types only; `report_file.rs` fills them,
//! `functions_timing` through its typed model (`timing.rs`) and every other section
//! generically (`generic/`), so sections added to the report later are compared
//! without changes here.
//!
//! A section keeps its metrics once, in a table, and each row only `(metric, value)`
//! pairs: a report of many rows then costs about as much memory as its JSON text.

use std::collections::HashMap;

use hotpath_model::{Judging, Unit};
use indexmap::IndexMap;

/// Name of the pseudo-section holding whole-run values (wall time per main function).
pub(crate) const RUN_SECTION: &str = "run";

/// A compared metric: where the value sits in a report row and what it measures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MetricInfo {
    /// Path of the value in the report row (`avg_ns`, `percentiles_ns.p95`).
    pub(crate) key: String,
    /// Short name for tables (`avg`, `p95`).
    pub(crate) label: String,
    pub(crate) unit: Unit,
    /// How it is judged: what the row's type declares (`RowMetric::judging`), or for a
    /// section read without its type, the model's rule from the unit and path.
    pub(crate) judging: Judging,
}

impl MetricInfo {
    /// How the metric is judged.
    pub(crate) fn judging(&self) -> Judging {
        self.judging
    }
}

/// One row's values: `(index in the section's metrics, value)`, in report order.
pub(crate) type RowValues = Vec<(u32, f64)>;

/// The metrics of a section, each once, numbered in order of appearance.
#[derive(Clone, Debug, Default)]
pub(crate) struct Metrics {
    list: Vec<MetricInfo>,
    index: HashMap<String, u32>,
}

impl Metrics {
    /// The number of metric `key`, added with `label`, `unit` and `judging` when new.
    pub(crate) fn id(&mut self, key: &str, label: &str, unit: Unit, judging: Judging) -> u32 {
        if let Some(&i) = self.index.get(key) {
            return i;
        }
        let i = self.list.len() as u32;
        self.list.push(MetricInfo { key: key.to_string(), label: label.to_string(), unit, judging });
        self.index.insert(key.to_string(), i);
        i
    }

    /// The number of metric `key`, if known.
    pub(crate) fn find(&self, key: &str) -> Option<u32> {
        self.index.get(key).copied()
    }

    pub(crate) fn get(&self, id: u32) -> &MetricInfo {
        &self.list[id as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }
}

/// The rows of one section of one report, in report order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Section {
    pub(crate) metrics: Metrics,
    pub(crate) rows: IndexMap<String, RowValues>,
    /// The row limit may have cut rows: a row missing here may still have run.
    pub(crate) truncated: bool,
}

impl Section {
    /// The number of metric `key`, added when new (judged by the model's rule for its
    /// unit and path).
    pub(crate) fn metric(&mut self, key: &str, label: &str, unit: Unit) -> u32 {
        self.metrics.id(key, label, unit, unit.judging(key))
    }

    /// The number of metric `key`, if the section has it.
    pub(crate) fn index_of(&self, key: &str) -> Option<u32> {
        self.metrics.find(key)
    }

    /// Adds a value of metric `key` to row `row` (created when new).
    pub(crate) fn push(&mut self, row: &str, key: &str, label: &str, unit: Unit, value: f64) {
        self.push_judged(row, key, label, unit, unit.judging(key), value);
    }

    /// As [`push`](Self::push), judged as the row's type declares.
    pub(crate) fn push_judged(&mut self, row: &str, key: &str, label: &str, unit: Unit, judging: Judging, value: f64) {
        let metric = self.metrics.id(key, label, unit, judging);
        match self.rows.get_mut(row) {
            Some(values) => values.push((metric, value)),
            None => {
                self.rows.insert(row.to_string(), vec![(metric, value)]);
            }
        }
    }

    /// The metric of a value of this section.
    #[cfg(test)]
    pub(crate) fn info(&self, metric: u32) -> &MetricInfo {
        self.metrics.get(metric)
    }
}

/// Everything compared from one report.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunSamples {
    pub(crate) sections: IndexMap<String, Section>,
    /// `#[measure]` async functions found in both `functions_timing` and `futures`,
    /// compared once, in `functions_timing`.
    pub(crate) async_duplicates: usize,
    /// The report comes from a run under Callgrind: its timings were dropped.
    pub(crate) under_callgrind: bool,
}

impl RunSamples {
    /// Drops every value measured in time (durations, rates, shares of time), as for
    /// a run under Callgrind, where the program runs fifty times slower.
    pub(crate) fn drop_timings(&mut self) {
        for section in self.sections.values_mut() {
            let timed: Vec<bool> = (0..section.metrics.len() as u32)
                .map(|i| {
                    let unit = section.metrics.get(i).unit;
                    !matches!(unit, Unit::Instructions | Unit::Count | Unit::Bytes)
                })
                .collect();
            for values in section.rows.values_mut() {
                values.retain(|(m, _)| !timed[*m as usize]);
            }
            section.rows.retain(|_, values| !values.is_empty());
        }
        self.sections.retain(|_, s| !s.rows.is_empty());
    }

    /// True when no section but the run's own holds a row.
    pub(crate) fn has_measurements(&self) -> bool {
        self.sections.iter().any(|(name, s)| name != RUN_SECTION && !s.rows.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_are_kept_once_per_section() {
        let mut s = Section::default();
        s.push("a", "avg_ns", "avg", Unit::Nanoseconds, 1.0);
        s.push("b", "avg_ns", "avg", Unit::Nanoseconds, 2.0);
        s.push("b", "calls", "calls", Unit::Count, 3.0);
        assert_eq!(s.metrics.len(), 2);
        assert_eq!(s.index_of("calls"), Some(1));
        assert_eq!(s.rows["b"], [(0, 2.0), (1, 3.0)]);
        assert_eq!(s.info(1).key, "calls");
    }
}
