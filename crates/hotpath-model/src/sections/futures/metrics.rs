//! `futures` for the sinks: rows by future, and its metric families.

use crate::export::{EstimateFamilies, Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::Futures;

impl SectionData for Futures {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut completed =
            Family::new("hotpath_future_completed_total", MetricKind::Counter, "Futures that completed.");
        let mut cancelled =
            Family::new("hotpath_future_cancelled_total", MetricKind::Counter, "Futures dropped before completing.");
        let mut polls = Family::new("hotpath_future_polls_total", MetricKind::Counter, "Polls of each future.");
        let mut duration = Family::new(
            "hotpath_future_duration_seconds",
            MetricKind::Histogram,
            "Wall time of completed futures, first poll to ready.",
        );
        let mut estimated = EstimateFamilies::new(
            "hotpath_future_duration_timed_ratio",
            "hotpath_future_duration_seconds_ci95",
            "95% interval of the estimated total wall time, where the overhead budget timed a share of futures.",
        );
        for row in &self.rows {
            let l = [("future", row.name.as_str())];
            estimated.add_stats(&l, &row.wall);
            completed.value(&l, row.calls as f64);
            cancelled.value(&l, row.cancelled as f64);
            polls.value(&l, row.polls as f64);
            duration.histogram(&l, row.wall.buckets.as_ref());
        }
        out.extend([completed, cancelled, polls, duration]);
        out.extend(estimated.into_families());
    }

    fn row_names(&self) -> Vec<&str> {
        self.rows.iter().map(|r| r.name.as_str()).collect()
    }

    fn keep_rows(&mut self, keep: &[usize]) {
        keep_rows(&mut self.rows, keep);
    }

    fn visit_row_figures(&self, each: &mut dyn FnMut(&str, Vec<crate::RowMetric>)) -> bool {
        visit_rows(&self.rows, each)
    }

    fn visit_totals(&self, each: &mut dyn FnMut(&str, crate::Unit, f64)) -> bool {
        each("total_futures", crate::Unit::Count, self.total_futures as f64);
        true
    }
}
