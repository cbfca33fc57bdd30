//! The `mutexes` section: acquisitions of `mutex!`-wrapped locks, the wait to acquire,
//! how long guards were held, and how often the lock was already taken.

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

use crate::stats::LockTiming;

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
    /// Times code reached the wrapped lock through `Deref` (a `&wrapped` passed as the
    /// backend's own type, or a method the wrapper does not define): acquisitions done that way
    /// are not measured. 0 when the wrapper's type is used throughout.
    #[serde(default)]
    pub derefs: u64,
}
