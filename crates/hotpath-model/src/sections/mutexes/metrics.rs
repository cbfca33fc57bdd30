//! `mutexes` for the sinks: rows by mutex, and its metric families.

use crate::export::{Families, Family, LockEstimates, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::Mutexes;

impl SectionData for Mutexes {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut acquisitions =
            Family::new("hotpath_mutex_acquisitions_total", MetricKind::Counter, "Lock acquisitions.");
        let mut contended =
            Family::new("hotpath_mutex_contended_total", MetricKind::Counter, "Acquisitions that had to wait.");
        let mut waited =
            Family::new("hotpath_mutex_wait_seconds_total", MetricKind::Counter, "Time spent waiting for the lock.");
        let mut wait = Family::new("hotpath_mutex_wait_seconds", MetricKind::Histogram, "Wait to acquire the lock.");
        let mut hold =
            Family::new("hotpath_mutex_hold_seconds", MetricKind::Histogram, "Time guards were held (sampled).");
        let mut estimated = LockEstimates::new(
            ["hotpath_mutex_wait_timed_ratio", "hotpath_mutex_wait_seconds_ci95"],
            ["hotpath_mutex_hold_timed_ratio", "hotpath_mutex_hold_seconds_ci95"],
        );
        for row in &self.rows {
            let l = [("mutex", row.name.as_str())];
            estimated.add(&l, &row.lock);
            acquisitions.value(&l, row.lock.acquisitions as f64);
            contended.value(&l, row.lock.contended as f64);
            waited.value(&l, row.lock.wait.total_ns as f64 / 1e9);
            wait.histogram(&l, row.lock.wait.buckets.as_ref());
            hold.histogram(&l, row.lock.hold.buckets.as_ref());
        }
        out.extend([acquisitions, contended, waited, wait, hold]);
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
        each("total_mutexes", crate::Unit::Count, self.total_mutexes as f64);
        true
    }
}
