//! `threads` for the sinks: rows by thread, and its metric families.

use crate::export::{Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::Threads;

impl SectionData for Threads {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut rss =
            Family::new("hotpath_resident_memory_bytes", MetricKind::Gauge, "Resident set size of the process.");
        rss.value(&[], self.rss_bytes as f64);
        let mut cpu = Family::new(
            "hotpath_thread_cpu_seconds_total",
            MetricKind::Counter,
            "CPU time of each thread of the program, user and system.",
        );
        for row in &self.rows {
            let tid = row.tid.to_string();
            let labels = |mode| [("thread", row.name.as_str()), ("tid", tid.as_str()), ("mode", mode)];
            cpu.value(&labels("user"), row.cpu_user_ns as f64 / 1e9);
            cpu.value(&labels("system"), row.cpu_sys_ns as f64 / 1e9);
        }
        out.extend([rss, cpu]);
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
        each("rss_bytes", crate::Unit::Bytes, self.rss_bytes as f64);
        each("interval_ms", crate::Unit::Milliseconds, self.interval_ms as f64);
        each("samples", crate::Unit::Count, self.samples as f64);
        each("total_threads", crate::Unit::Count, self.total_threads as f64);
        each("exited_dropped", crate::Unit::Count, self.exited_dropped as f64);
        true
    }
}
