//! `mutexes` rows list their figures for typed readers (`hotpath compare`).

use crate::row_metrics::{push, push_lock, RowMetric, RowMetrics};
use crate::units::Unit;

use super::MutexRow;

impl RowMetrics for MutexRow {
    fn row_name(&self) -> &str {
        &self.name
    }

    fn row_metrics(&self) -> Vec<RowMetric> {
        let mut out = Vec::new();
        push(&mut out, "instances", Unit::Count, self.instances as f64);
        push_lock(&mut out, "lock", &self.lock);
        // Informational (`Unit::judging`): a hint about the program, not a cost.
        push(&mut out, "derefs", Unit::Count, self.derefs as f64);
        out
    }
}
