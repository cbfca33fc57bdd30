//! The `rw_locks` section: `rw_lock!`-wrapped locks, reads and writes separately.

use serde::{Deserialize, Serialize};

use crate::mutexes::LockTiming;
use crate::report::Meta;
use crate::table::{shown, Table};

/// Every `rw_lock!` site and data type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RwLocks {
    /// Rows before the focus filter and the row limit.
    pub total_rw_locks: usize,
    /// Rows after focus and limit, by total wait (reads and writes), longest first.
    pub rows: Vec<RwLockRow>,
}

/// One `rw_lock!` site and data type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RwLockRow {
    /// The label or `file:line`.
    pub name: String,
    /// Source file of the macro.
    pub file: String,
    /// Source line.
    pub line: u32,
    /// `std`, `parking_lot` or `tokio`.
    pub kind: String,
    /// Type of the protected data.
    pub data_type: String,
    /// Locks wrapped at this site.
    pub instances: u64,
    /// Shared (read) acquisitions.
    pub reads: LockTiming,
    /// Exclusive (write) acquisitions.
    pub writes: LockTiming,
}

impl RwLocks {
    /// Reads and writes as two stacked tables; one without acquisitions is left out.
    pub(crate) fn render(&self, meta: &Meta) -> String {
        let table = |pick: fn(&RwLockRow) -> &LockTiming| {
            let mut table = Table::new(LockTiming::header("RwLock", meta));
            let mut any = false;
            for row in self.rows.iter().filter(|r| pick(r).acquisitions > 0) {
                table.row(pick(row).cells(&row.name, &row.kind, row.instances, meta));
                any = true;
            }
            any.then_some(table)
        };
        let summary = shown(self.rows.len(), self.total_rw_locks);
        let mut out = format!(
            "rw-locks - RwLock acquisitions, reads and writes apart: wait to acquire, hold time, contention. ({summary})\n"
        );
        for (title, pick) in [("Reads", (|r| &r.reads) as fn(&RwLockRow) -> &LockTiming), ("Writes", |r| &r.writes)] {
            if let Some(t) = table(pick) {
                out.push_str(title);
                out.push('\n');
                out.push_str(&t.render());
            }
        }
        out
    }
}
