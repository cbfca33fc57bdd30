//! Builds the `mutexes` and `rw_locks` sections.

use hotpath_model::{LockTiming, MutexRow, Mutexes, RwLockRow, RwLocks};

use super::entry::{Mode, MutexEntry, RwLockEntry};
use crate::entries::{short_type_name, Instrument};
use crate::options::Options;
use crate::record::durations;
use crate::record::{select, SiteTotals};

fn timing(mode: &Mode, totals: &[SiteTotals], ratio: f64, config: &Options) -> LockTiming {
    let empty = SiteTotals::default();
    let contended = mode.contended.totals(totals).unwrap_or(&empty);
    let hold = mode.hold.totals(totals).unwrap_or(&empty);
    let mut t = LockTiming::default();
    t.acquisitions = hold.polls;
    // Every contended acquisition is counted; only the timed ones have a wait recorded
    // (all of them unless time sampling is on). Uncontended ones wait exactly 0.
    t.contended = contended.polls;
    t.wait = durations::stats(contended, t.acquisitions.saturating_sub(contended.polls), ratio, config);
    t.hold = durations::stats(hold, 0, ratio, config);
    t
}

/// By total wait, longest first, then by acquisitions, from the metrics' `totals`. `None`
/// when no mutex was wrapped.
pub(crate) fn mutexes(totals: &[SiteTotals], ratio: f64, config: &Options) -> Option<Mutexes> {
    let entries = MutexEntry::registry().all();
    if entries.is_empty() {
        return None;
    }
    let mut rows: Vec<MutexRow> = entries
        .iter()
        .map(|e| {
            let mut row = MutexRow::default();
            row.name = e.name().to_string();
            row.file = e.file().to_string();
            row.line = e.line();
            row.kind = e.core.kind.to_string();
            row.data_type = short_type_name(e.type_name());
            row.instances = e.core.instances.load(std::sync::atomic::Ordering::Relaxed);
            row.lock = timing(&e.mode, totals, ratio, config);
            row.derefs = e.core.derefs.get();
            row
        })
        .collect();
    rows.sort_by(|a, b| {
        (b.lock.wait.total_ns, b.lock.acquisitions)
            .cmp(&(a.lock.wait.total_ns, a.lock.acquisitions))
            .then_with(|| a.name.cmp(&b.name))
    });
    let (total_mutexes, rows) = select(rows, |r| &r.name, config);
    let mut section = Mutexes::default();
    section.total_mutexes = total_mutexes;
    section.rows = rows;
    Some(section)
}

/// By total wait of reads and writes, longest first. `None` when no RwLock was wrapped.
pub(crate) fn rw_locks(totals: &[SiteTotals], ratio: f64, config: &Options) -> Option<RwLocks> {
    let entries = RwLockEntry::registry().all();
    if entries.is_empty() {
        return None;
    }
    let mut rows: Vec<RwLockRow> = entries
        .iter()
        .map(|e| {
            let mut row = RwLockRow::default();
            row.name = e.name().to_string();
            row.file = e.file().to_string();
            row.line = e.line();
            row.kind = e.core.kind.to_string();
            row.data_type = short_type_name(e.type_name());
            row.instances = e.core.instances.load(std::sync::atomic::Ordering::Relaxed);
            row.reads = timing(&e.read, totals, ratio, config);
            row.writes = timing(&e.write, totals, ratio, config);
            row.derefs = e.core.derefs.get();
            row
        })
        .collect();
    let wait = |r: &RwLockRow| r.reads.wait.total_ns + r.writes.wait.total_ns;
    rows.sort_by(|a, b| wait(b).cmp(&wait(a)).then_with(|| a.name.cmp(&b.name)));
    let (total_rw_locks, rows) = select(rows, |r| &r.name, config);
    let mut section = RwLocks::default();
    section.total_rw_locks = total_rw_locks;
    section.rows = rows;
    Some(section)
}
