//! `rw_locks` for the sinks: rows by RwLock, and its metric families (mode `read`/`write`).

use crate::export::{Families, Family, LockEstimates, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::RwLocks;

impl SectionData for RwLocks {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut acquisitions =
            Family::new("hotpath_rw_lock_acquisitions_total", MetricKind::Counter, "Read and write acquisitions.");
        let mut waited = Family::new(
            "hotpath_rw_lock_wait_seconds_total",
            MetricKind::Counter,
            "Time spent waiting for read and write access.",
        );
        let mut wait =
            Family::new("hotpath_rw_lock_wait_seconds", MetricKind::Histogram, "Wait to acquire read or write access.");
        let mut hold = Family::new(
            "hotpath_rw_lock_hold_seconds",
            MetricKind::Histogram,
            "Time read and write guards were held (sampled).",
        );
        let mut estimated = LockEstimates::new(
            ["hotpath_rw_lock_wait_timed_ratio", "hotpath_rw_lock_wait_seconds_ci95"],
            ["hotpath_rw_lock_hold_timed_ratio", "hotpath_rw_lock_hold_seconds_ci95"],
        );
        for row in &self.rows {
            for (mode, lock) in [("read", &row.reads), ("write", &row.writes)] {
                let l = [("rw_lock", row.name.as_str()), ("mode", mode)];
                estimated.add(&l, lock);
                acquisitions.value(&l, lock.acquisitions as f64);
                waited.value(&l, lock.wait.total_ns as f64 / 1e9);
                wait.histogram(&l, lock.wait.buckets.as_ref());
                hold.histogram(&l, lock.hold.buckets.as_ref());
            }
        }
        out.extend([acquisitions, waited, wait, hold]);
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
        each("total_rw_locks", crate::Unit::Count, self.total_rw_locks as f64);
        true
    }
}
