//! `tokio_runtime` for the sinks: rows by runtime, and its metric families.

use crate::export::{Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::TokioRuntimes;

impl SectionData for TokioRuntimes {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut workers = Family::new("hotpath_tokio_workers", MetricKind::Gauge, "Worker threads of the runtime.");
        let mut alive = Family::new("hotpath_tokio_alive_tasks", MetricKind::Gauge, "Tasks alive in the runtime.");
        let mut queue = Family::new(
            "hotpath_tokio_global_queue_depth",
            MetricKind::Gauge,
            "Tasks waiting in the runtime's global queue.",
        );
        let mut busy = Family::new(
            "hotpath_tokio_worker_busy_seconds_total",
            MetricKind::Counter,
            "Time each worker spent busy since monitoring began.",
        );
        let mut parks = Family::new(
            "hotpath_tokio_worker_parks_total",
            MetricKind::Counter,
            "Times each worker parked since monitoring began.",
        );
        for rt in &self.runtimes {
            let l = [("runtime", rt.name.as_str())];
            workers.value(&l, rt.num_workers as f64);
            alive.value(&l, rt.alive_tasks as f64);
            queue.value(&l, rt.global_queue_depth as f64);
            for w in &rt.workers {
                let index = w.index.to_string();
                let l = [("runtime", rt.name.as_str()), ("worker", index.as_str())];
                busy.value(&l, w.busy_ns as f64 / 1e9);
                parks.value(&l, w.parks as f64);
            }
        }
        out.extend([workers, alive, queue, busy, parks]);
    }

    fn row_names(&self) -> Vec<&str> {
        self.runtimes.iter().map(|r| r.name.as_str()).collect()
    }

    fn keep_rows(&mut self, keep: &[usize]) {
        keep_rows(&mut self.runtimes, keep);
    }

    fn visit_row_figures(&self, each: &mut dyn FnMut(&str, Vec<crate::RowMetric>)) -> bool {
        visit_rows(&self.runtimes, each)
    }

    fn visit_totals(&self, each: &mut dyn FnMut(&str, crate::Unit, f64)) -> bool {
        each("interval_ms", crate::Unit::Milliseconds, self.interval_ms as f64);
        each("total_runtimes", crate::Unit::Count, self.total_runtimes as f64);
        true
    }
}
