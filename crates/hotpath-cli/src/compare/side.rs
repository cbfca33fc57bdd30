//! One side of a comparison (base or head): the samples of all its runs, merged so
//! that each metric of each row holds one value per run that measured it.

use std::path::PathBuf;

use indexmap::IndexMap;

use super::kind::Kind;
use super::samples::RunSamples;

/// All runs of one side.
#[derive(Clone, Debug, Default)]
pub(crate) struct Side {
    /// How the side was named: the pattern given, or the git ref and commit.
    pub(crate) label: String,
    pub(crate) files: Vec<PathBuf>,
    pub(crate) runs: usize,
    pub(crate) sections: IndexMap<String, SideSection>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct SideSection {
    pub(crate) rows: IndexMap<String, SideRow>,
    /// Some run's report had this section cut by its row limit.
    pub(crate) truncated: bool,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct SideRow {
    /// Runs whose report had this row.
    pub(crate) present: usize,
    pub(crate) metrics: IndexMap<String, Series>,
}

/// The values of one metric, one per run that reported it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Series {
    pub(crate) label: String,
    pub(crate) kind: Kind,
    pub(crate) values: Vec<f64>,
}

impl Side {
    pub(crate) fn new(label: impl Into<String>, files: Vec<PathBuf>, runs: Vec<RunSamples>) -> Self {
        let mut side = Self { label: label.into(), files, runs: runs.len(), sections: IndexMap::new() };
        for run in runs {
            for (name, section) in run.sections {
                let merged = side.sections.entry(name).or_default();
                merged.truncated |= section.truncated;
                for (row_name, metrics) in section.rows {
                    let row = merged.rows.entry(row_name).or_default();
                    row.present += 1;
                    for m in metrics {
                        let series = row.metrics.entry(m.key).or_insert_with(|| Series {
                            label: m.label,
                            kind: m.kind,
                            values: Vec::new(),
                        });
                        series.values.push(m.value);
                    }
                }
            }
        }
        side
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::samples::{Metric, Section};

    fn run(rows: &[(&str, f64)]) -> RunSamples {
        let mut section = Section::default();
        for (name, v) in rows {
            section.rows.insert(name.to_string(), vec![Metric::new("avg_ns", "avg", Kind::Duration, *v)]);
        }
        let mut run = RunSamples::default();
        run.sections.insert("functions_timing".into(), section);
        run
    }

    #[test]
    fn merges_values_per_metric_across_runs() {
        let side = Side::new("base", vec![], vec![run(&[("a", 1.0), ("b", 5.0)]), run(&[("a", 2.0)])]);
        assert_eq!(side.runs, 2);
        let rows = &side.sections["functions_timing"].rows;
        assert_eq!(rows["a"].present, 2);
        assert_eq!(rows["a"].metrics["avg_ns"].values, [1.0, 2.0]);
        assert_eq!(rows["b"].present, 1);
        assert_eq!(rows["b"].metrics["avg_ns"].values, [5.0]);
    }
}
