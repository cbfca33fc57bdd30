//! Each runtime of `tokio_runtime` lists its runtime-wide figures for typed readers
//! (MCP, the console's detail pane); its workers stay in their own list.

use crate::row_metrics::{push, RowMetric, RowMetrics};
use crate::units::Unit;

use super::TokioRuntime;

impl RowMetrics for TokioRuntime {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "monitored_ns", Unit::Nanoseconds, self.monitored_ns as f64);
        push(&mut out, "samples", Unit::Count, self.samples as f64);
        let counts = [
            ("num_workers", self.num_workers),
            ("alive_tasks", self.alive_tasks),
            ("max_alive_tasks", self.max_alive_tasks),
            ("global_queue_depth", self.global_queue_depth),
            ("max_global_queue_depth", self.max_global_queue_depth),
        ];
        for (key, value) in counts {
            push(&mut out, key, Unit::Count, value as f64);
        }
        let optional = [
            ("blocking_threads", self.blocking_threads.map(|n| n as u64)),
            ("idle_blocking_threads", self.idle_blocking_threads.map(|n| n as u64)),
            ("blocking_queue_depth", self.blocking_queue_depth.map(|n| n as u64)),
            ("max_blocking_queue_depth", self.max_blocking_queue_depth.map(|n| n as u64)),
            ("spawned_tasks", self.spawned_tasks),
            ("remote_schedules", self.remote_schedules),
            ("budget_forced_yields", self.budget_forced_yields),
        ];
        for (key, value) in optional {
            if let Some(value) = value {
                push(&mut out, key, Unit::Count, value as f64);
            }
        }
        out
    }
}
