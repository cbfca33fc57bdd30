//! `functions-timing` for the sinks: rows by function, and its metric families.

use crate::export::{interval, EstimateFamilies, Families, Family, MetricKind};
use crate::meta::Meta;
use crate::section::{keep_rows, visit_rows, SectionData};

use super::FunctionsTiming;

impl SectionData for FunctionsTiming {
    fn render(&self, meta: &Meta) -> String {
        self.table(meta)
    }

    fn metrics(&self, out: &mut Families) {
        let mut duration = Family::new(
            "hotpath_function_duration_seconds",
            MetricKind::Histogram,
            "Duration of completed calls of measured functions (async: first poll to ready).",
        );
        let mut time = Family::new(
            "hotpath_function_time_seconds_total",
            MetricKind::Counter,
            "Inclusive time of outermost calls (recursion counted once).",
        );
        let mut self_time = Family::new(
            "hotpath_function_self_time_seconds_total",
            MetricKind::Counter,
            "Exclusive time: minus nested measured calls.",
        );
        let mut cancelled = Family::new(
            "hotpath_function_cancelled_total",
            MetricKind::Counter,
            "Async calls dropped before completing.",
        );
        let mut polls =
            Family::new("hotpath_function_polls_total", MetricKind::Counter, "Polls of measured async functions.");
        let mut busy = Family::new(
            "hotpath_function_busy_seconds_total",
            MetricKind::Counter,
            "Time inside polls of measured async functions.",
        );
        let mut active = Family::new(
            "hotpath_function_active",
            MetricKind::Gauge,
            "Calls of measured functions running now (sync on a stack, async polled and not ended).",
        );
        let mut oldest = Family::new(
            "hotpath_function_oldest_active_seconds",
            MetricKind::Gauge,
            "Age of the oldest running call of measured functions whose start is known.",
        );
        let mut estimated = EstimateFamilies::new(
            "hotpath_function_timed_ratio",
            "hotpath_function_time_seconds_ci95",
            "95% interval of the estimated inclusive time, where the overhead budget timed a share of calls.",
        );
        let mut self_estimated = Family::new(
            "hotpath_function_self_time_seconds_ci95",
            MetricKind::Gauge,
            "95% interval of the estimated exclusive time, where the overhead budget timed a share of calls.",
        );
        for row in &self.rows {
            let l = [("function", row.name.as_str())];
            if let Some(e) = &row.estimate {
                estimated.add(&l, e.rate, e.total_ns_ci95);
                interval(&mut self_estimated, &l, e.self_ns_ci95);
            }
            duration.histogram(&l, row.buckets.as_ref());
            time.value(&l, row.total_ns as f64 / 1e9);
            self_time.value(&l, row.self_ns as f64 / 1e9);
            cancelled.value(&l, row.cancelled as f64);
            polls.value(&l, row.polls as f64);
            busy.value(&l, row.busy_ns as f64 / 1e9);
            active.value(&l, row.active as f64);
            if let Some(ns) = row.oldest_active_ns.filter(|_| row.active > 0) {
                oldest.value(&l, ns as f64 / 1e9);
            }
        }
        out.extend([duration, time, self_time, cancelled, polls, busy, active, oldest]);
        out.extend(estimated.into_families());
        out.push(self_estimated);
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
        each("total_functions", crate::Unit::Count, self.total_functions as f64);
        true
    }
}
