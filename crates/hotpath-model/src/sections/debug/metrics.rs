//! `debug` for the sinks: rows in report order, and its metric families. `gauge!` keys
//! are Prometheus gauges `hotpath_tracker_value{key}` with `_min` and `_max` families
//! (promtool rejects a family name containing its type, so not `hotpath_gauge`);
//! non-finite values are left out (the text format has no `inf` spelling that every
//! parser reads the same).

use crate::export::{Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::{DebugRow, DebugTrackers};

impl SectionData for DebugTrackers {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut current = Family::new("hotpath_tracker_value", MetricKind::Gauge, "Current value of each gauge! key.");
        let mut min =
            Family::new("hotpath_tracker_value_min", MetricKind::Gauge, "Smallest value each gauge! key held.");
        let mut max =
            Family::new("hotpath_tracker_value_max", MetricKind::Gauge, "Largest value each gauge! key held.");
        let mut updates = Family::new(
            "hotpath_tracker_updates_total",
            MetricKind::Counter,
            "Updates per key: gauge! set, inc and dec calls, val! values set.",
        );
        let mut dbgs =
            Family::new("hotpath_dbg_calls_total", MetricKind::Counter, "Values recorded per dbg! call site.");
        for row in &self.rows {
            match row {
                DebugRow::Gauge(r) => {
                    let l = [("key", r.name.as_str())];
                    for (family, v) in [(&mut current, r.current), (&mut min, r.min), (&mut max, r.max)] {
                        if v.is_finite() {
                            family.value(&l, v);
                        }
                    }
                    updates.value(&[("tracker", "gauge"), ("key", r.name.as_str())], r.updates as f64);
                }
                DebugRow::Val(r) => {
                    updates.value(&[("tracker", "val"), ("key", r.name.as_str())], r.count as f64);
                }
                DebugRow::Dbg(r) => {
                    let source = format!("{}:{}:{}", r.file, r.line, r.column);
                    dbgs.value(&[("expression", r.name.as_str()), ("source", source.as_str())], r.count as f64);
                }
            }
        }
        out.extend([current, min, max, updates, dbgs]);
    }

    fn row_names(&self) -> Vec<&str> {
        self.rows.iter().map(DebugRow::name).collect()
    }

    fn keep_rows(&mut self, keep: &[usize]) {
        keep_rows(&mut self.rows, keep);
    }

    fn visit_row_figures(&self, each: &mut dyn FnMut(&str, Vec<crate::RowMetric>)) -> bool {
        visit_rows(&self.rows, each)
    }

    fn visit_totals(&self, each: &mut dyn FnMut(&str, crate::Unit, f64)) -> bool {
        each("logs_limit", crate::Unit::Count, self.logs_limit as f64);
        each("max_log_len", crate::Unit::Count, self.max_log_len as f64);
        each("entries_limit", crate::Unit::Count, self.entries_limit as f64);
        each("total_rows", crate::Unit::Count, self.total_rows as f64);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sections::debug::GaugeRow;

    #[test]
    fn gauges_are_three_families_and_non_finite_values_are_left_out() {
        let gauge = |name: &str, current: f64| {
            DebugRow::Gauge(GaugeRow {
                name: name.into(),
                current,
                min: -1.0,
                max: 4.0,
                updates: 2,
                ..GaugeRow::default()
            })
        };
        let section = DebugTrackers { rows: vec![gauge("q", 3.0), gauge("bad", f64::NAN)], ..DebugTrackers::default() };
        let mut families = Families::new();
        section.metrics(&mut families);
        let family = |name: &str| families.iter().find(|f| f.name == name).unwrap();
        assert_eq!(family("hotpath_tracker_value").series.len(), 1, "NaN is left out");
        assert_eq!(family("hotpath_tracker_value_min").series.len(), 2);
        assert_eq!(family("hotpath_tracker_updates_total").kind, MetricKind::Counter);
        assert_eq!(family("hotpath_tracker_value").series[0].labels, [("key", "q".to_string())]);
        assert!(families.iter().all(|f| !f.name.contains("gauge")), "promtool: no type in a family name");
    }
}
