//! The printed table of the `rw_locks` section.

use crate::derefs::{lock_module, noted, Reached};
use crate::grid::{shown, Table};
use crate::meta::Meta;
use crate::stats::{DurationStats, LockTiming};

use super::{RwLockRow, RwLocks};

impl RwLocks {
    /// Reads and writes as two stacked tables; one without acquisitions is left out.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let table = |pick: fn(&RwLockRow) -> &LockTiming| {
            let mut table = Table::new(LockTiming::header("RwLock", meta)).names(meta.name_width);
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
        let timings = self.rows.iter().flat_map(|r| [&r.reads, &r.writes]);
        out.push_str(DurationStats::estimate_note(timings.flat_map(|t| [&t.wait, &t.hold])));
        noted(
            out,
            self.rows.iter().map(|r| Reached {
                name: &r.name,
                derefs: r.derefs,
                unmeasured: "acquisitions",
                fix: format!("&{}::RwLock<{}>", lock_module(&r.kind), r.data_type),
            }),
        )
    }
}
