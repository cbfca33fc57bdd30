//! `functions_icount` rows list their figures for typed readers (`hotpath compare`).

use crate::row_metrics::{push, RowMetric, RowMetrics};
use crate::units::Unit;

use super::FunctionIcount;

impl RowMetrics for FunctionIcount {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "calls", Unit::Count, self.calls as f64);
        push(&mut out, "polls", Unit::Count, self.polls as f64);
        for (name, value) in [("ir", self.ir), ("ir_per_call", self.ir_per_call), ("self_ir", self.self_ir)] {
            push(&mut out, name, Unit::Instructions, value as f64);
        }
        out
    }
}
