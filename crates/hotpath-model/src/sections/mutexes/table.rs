//! The printed table of the `mutexes` section.

use crate::derefs::{lock_module, noted, Reached};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;
use crate::stats::{DurationStats, LockTiming};

use super::Mutexes;

impl Mutexes {
    /// The `mutexes` table.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let mut table = Table::new(LockTiming::header("Mutex", meta)).names(meta.name_width);
        for row in &self.rows {
            table.row(row.lock.cells(&row.name, &row.kind, row.instances, meta));
        }
        let mut rendered = titled(
            "mutexes",
            "Mutex acquisitions: wait to acquire, hold time, acquisitions that found the lock taken.",
            &shown(self.rows.len(), self.total_mutexes),
            &table,
        );
        rendered.push_str(DurationStats::estimate_note(self.rows.iter().flat_map(|r| [&r.lock.wait, &r.lock.hold])));
        noted(
            rendered,
            self.rows.iter().map(|r| Reached {
                name: &r.name,
                derefs: r.derefs,
                unmeasured: "acquisitions",
                fix: format!("&{}::Mutex<{}>", lock_module(&r.kind), r.data_type),
            }),
        )
    }
}
