//! Builds the `mutexes` and `rw_locks` sections.

use hotpath_model::{LockTiming, MutexRow, Mutexes, RwLockRow, RwLocks};

use super::entry::{Mode, MutexEntry, RwLockEntry};
use crate::durations;
use crate::entries::{all, short_type_name, Entry};
use crate::functions::{select, SiteTotals};
use crate::options::Options;

fn timing(mode: &Mode, totals: &[SiteTotals], ratio: f64, config: &Options) -> LockTiming {
    let empty = SiteTotals::default();
    let contended = totals.get(mode.contended.id() as usize).unwrap_or(&empty);
    let hold = totals.get(mode.hold.id() as usize).unwrap_or(&empty);
    let mut t = LockTiming::default();
    t.acquisitions = hold.polls;
    t.contended = contended.calls;
    t.wait = durations::stats(contended, t.acquisitions.saturating_sub(contended.calls), ratio, config);
    t.hold = durations::stats(hold, 0, ratio, config);
    t
}

/// By total wait, longest first, then by acquisitions. `None` when no mutex was wrapped.
pub(crate) fn mutexes(totals: &[SiteTotals], ratio: f64, config: &Options) -> Option<Mutexes> {
    let entries = all::<MutexEntry>();
    if entries.is_empty() {
        return None;
    }
    let mut rows: Vec<MutexRow> = entries
        .iter()
        .map(|e| {
            let h = e.header();
            let mut row = MutexRow::default();
            row.name = h.name.clone();
            row.file = h.file().to_string();
            row.line = h.line();
            row.kind = e.core.kind.to_string();
            row.data_type = short_type_name(h.type_name);
            row.instances = e.core.instances.load(std::sync::atomic::Ordering::Relaxed);
            row.lock = timing(&e.mode, totals, ratio, config);
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
    let entries = all::<RwLockEntry>();
    if entries.is_empty() {
        return None;
    }
    let mut rows: Vec<RwLockRow> = entries
        .iter()
        .map(|e| {
            let h = e.header();
            let mut row = RwLockRow::default();
            row.name = h.name.clone();
            row.file = h.file().to_string();
            row.line = h.line();
            row.kind = e.core.kind.to_string();
            row.data_type = short_type_name(h.type_name);
            row.instances = e.core.instances.load(std::sync::atomic::Ordering::Relaxed);
            row.reads = timing(&e.read, totals, ratio, config);
            row.writes = timing(&e.write, totals, ratio, config);
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
