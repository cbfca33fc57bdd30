//! One side of a comparison (base or head): the samples of all its runs, merged so
//! that each metric of each row holds one value per run that measured it.

use std::path::PathBuf;

use indexmap::IndexMap;

use super::samples::{Metrics, RowValues, RunSamples};

/// All runs of one side.
#[derive(Clone, Debug, Default)]
pub(crate) struct Side {
    /// How the side was named: the pattern given, or the git ref and commit.
    pub(crate) label: String,
    pub(crate) files: Vec<PathBuf>,
    pub(crate) runs: usize,
    pub(crate) sections: IndexMap<String, SideSection>,
    /// Async functions compared in `functions_timing` only (the most of any run).
    pub(crate) async_duplicates: usize,
    /// Runs made under Callgrind, whose timings were left out.
    pub(crate) callgrind_runs: usize,
    /// With --git: the commit the side was built from.
    pub(crate) label_commit: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct SideSection {
    pub(crate) metrics: Metrics,
    pub(crate) rows: IndexMap<String, SideRow>,
    /// Some run's report had this section cut by its row limit.
    pub(crate) truncated: bool,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct SideRow {
    /// Runs whose report had this row.
    pub(crate) present: usize,
    /// `(metric, value)` of every run, grouped by metric, runs in order within a metric.
    values: RowValues,
}

impl SideRow {
    /// Each metric of the row with its values, one per run that reported it.
    pub(crate) fn series(&self) -> impl Iterator<Item = (u32, Vec<f64>)> + '_ {
        self.values.chunk_by(|a, b| a.0 == b.0).map(|group| (group[0].0, group.iter().map(|(_, v)| *v).collect()))
    }

    /// The values of metric `id`, if the row has it.
    pub(crate) fn values_of(&self, id: u32) -> Option<Vec<f64>> {
        let start = self.values.partition_point(|(m, _)| *m < id);
        let values: Vec<f64> = self.values[start..].iter().take_while(|(m, _)| *m == id).map(|(_, v)| *v).collect();
        (!values.is_empty()).then_some(values)
    }
}

impl Side {
    pub(crate) fn new(label: impl Into<String>, files: Vec<PathBuf>, runs: Vec<RunSamples>) -> Self {
        let mut side = Self { label: label.into(), files, runs: runs.len(), ..Self::default() };
        for run in runs {
            side.async_duplicates = side.async_duplicates.max(run.async_duplicates);
            side.callgrind_runs += usize::from(run.under_callgrind);
            for (name, section) in run.sections {
                let merged = side.sections.entry(name).or_default();
                merged.truncated |= section.truncated;
                // The run's metric numbers in the side's numbering.
                let ids: Vec<u32> = (0..section.metrics.len() as u32)
                    .map(|i| {
                        let m = section.metrics.get(i);
                        merged.metrics.id(&m.key, &m.label, m.unit, m.judging)
                    })
                    .collect();
                for (row_name, mut values) in section.rows {
                    for (m, _) in &mut values {
                        *m = ids[*m as usize];
                    }
                    match merged.rows.get_mut(&row_name) {
                        Some(row) => {
                            row.present += 1;
                            row.values.append(&mut values);
                        }
                        None => {
                            merged.rows.insert(row_name, SideRow { present: 1, values });
                        }
                    }
                }
            }
        }
        for row in side.sections.values_mut().flat_map(|s| s.rows.values_mut()) {
            // Stable: each metric's values stay in run order.
            row.values.sort_by_key(|(m, _)| *m);
        }
        side
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::samples::Section;
    use hotpath_model::Unit;

    pub(crate) fn run(rows: &[(&str, f64)]) -> RunSamples {
        let mut section = Section::default();
        for (name, v) in rows {
            section.push(name, "avg_ns", "avg", Unit::Nanoseconds, *v);
        }
        let mut run = RunSamples::default();
        run.sections.insert("functions_timing".into(), section);
        run
    }

    #[test]
    fn merges_values_per_metric_across_runs() {
        let side = Side::new("base", vec![], vec![run(&[("a", 1.0), ("b", 5.0)]), run(&[("a", 2.0)])]);
        assert_eq!(side.runs, 2);
        let s = &side.sections["functions_timing"];
        let avg = s.metrics.find("avg_ns").unwrap();
        assert_eq!(s.rows["a"].present, 2);
        assert_eq!(s.rows["a"].values_of(avg), Some(vec![1.0, 2.0]));
        assert_eq!(s.rows["b"].present, 1);
        assert_eq!(s.rows["b"].series().collect::<Vec<_>>(), [(avg, vec![5.0])]);
    }

    #[test]
    fn metrics_are_matched_by_key_whatever_their_order_in_a_run() {
        let mut first = Section::default();
        first.push("f", "calls", "calls", Unit::Count, 1.0);
        first.push("f", "avg_ns", "avg", Unit::Nanoseconds, 10.0);
        let mut second = Section::default();
        second.push("f", "avg_ns", "avg", Unit::Nanoseconds, 20.0);
        second.push("f", "calls", "calls", Unit::Count, 2.0);
        let runs =
            [first, second].map(|s| RunSamples { sections: [("x".to_string(), s)].into(), ..Default::default() });
        let side = Side::new("base", vec![], runs.into());
        let s = &side.sections["x"];
        let series: Vec<(String, Vec<f64>)> =
            s.rows["f"].series().map(|(m, v)| (s.metrics.get(m).key.clone(), v)).collect();
        assert_eq!(series, [("calls".to_string(), vec![1.0, 2.0]), ("avg_ns".to_string(), vec![10.0, 20.0])]);
    }
}
