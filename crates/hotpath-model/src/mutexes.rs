//! The `mutexes` section: acquisitions of `mutex!`-wrapped locks, the wait to acquire,
//! how long guards were held, and how often the lock was already taken.

use serde::{Deserialize, Serialize};

use crate::format::{format_count, format_percent};
use crate::report::Meta;
use crate::stats::DurationStats;
use crate::table::{shown, titled, Table};

/// Every `mutex!` site and data type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Mutexes {
    /// Rows before the focus filter and the row limit.
    pub total_mutexes: usize,
    /// Rows after focus and limit, by total wait, longest first, then by acquisitions.
    pub rows: Vec<MutexRow>,
}

/// One `mutex!` site and data type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct MutexRow {
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
    /// Acquisitions, waits and hold times.
    pub lock: LockTiming,
}

/// Acquisitions of one lock mode (a mutex, or the read or write side of an RwLock).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LockTiming {
    /// Successful acquisitions (blocking and `try_` ones).
    pub acquisitions: u64,
    /// Acquisitions that found the lock taken: the first `try_lock` failed and the caller waited.
    pub contended: u64,
    /// Wait to acquire, over all acquisitions (an uncontended one waits 0).
    pub wait: DurationStats,
    /// Time the guard was held, acquisition to drop.
    pub hold: DurationStats,
}

impl LockTiming {
    pub(crate) fn header(first: &str, meta: &Meta) -> Vec<String> {
        let mut header: Vec<String> = [first, "Kind", "Inst", "Acquired", "Contended"].map(String::from).to_vec();
        header.extend(DurationStats::header("Wait", meta));
        header.extend(DurationStats::header("Hold", meta));
        header
    }

    pub(crate) fn cells(&self, name: &str, kind: &str, instances: u64, meta: &Meta) -> Vec<String> {
        let contended = if self.acquisitions == 0 {
            "-".to_string()
        } else {
            format!("{} ({})", format_count(self.contended), format_percent(self.contended, self.acquisitions))
        };
        let mut cells = vec![
            name.to_string(),
            kind.to_string(),
            format_count(instances),
            format_count(self.acquisitions),
            contended,
        ];
        cells.extend(self.wait.cells(meta));
        cells.extend(self.hold.cells(meta));
        cells
    }
}

impl Mutexes {
    /// The `mutexes` table.
    pub(crate) fn render(&self, meta: &Meta) -> String {
        let mut table = Table::new(LockTiming::header("Mutex", meta));
        for row in &self.rows {
            table.row(row.lock.cells(&row.name, &row.kind, row.instances, meta));
        }
        titled(
            "mutexes",
            "Mutex acquisitions: wait to acquire, hold time, acquisitions that found the lock taken.",
            &shown(self.rows.len(), self.total_mutexes),
            &table,
        )
    }
}
