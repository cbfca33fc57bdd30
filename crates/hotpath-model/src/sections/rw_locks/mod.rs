//! The `rw_locks` section: `rw_lock!`-wrapped locks, reads and writes separately.

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

use crate::stats::LockTiming;

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
    /// Times code reached the wrapped lock through `Deref` (a `&wrapped` passed as the
    /// backend's own type, or a method the wrapper does not define): acquisitions done that way
    /// are not measured. 0 when the wrapper's type is used throughout.
    #[serde(default)]
    pub derefs: u64,
}
