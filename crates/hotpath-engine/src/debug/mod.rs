//! Debug trackers (`dbg!`, `val!`, `gauge!`), which keep their values in the log
//! store (`crate::logs`), and the `debug` section.
//!
//! # The trackers
//!
//! - `dbg!` (`site::DbgSite`): one entry per call site, found through the site's cached
//!   pointer (one atomic load); the entry is a `LogRing`.
//! - `val!` ([`ValSite`] → [`ValRef`]): one entry per key, a `LogRing` whose records
//!   carry the call site that set them.
//! - `gauge!` ([`GaugeSite`] → [`GaugeRef`]): one entry per key with current, min, max,
//!   update count, a 64-value history and a ring of numeric records (no formatting).
//!
//! Keyed sites cache the entry they used last and compare its key (one string
//! comparison for a literal key); another key goes through the macro's registry under
//! its lock (`keyed`), which holds at most `HOTPATH_ENTRIES_LIMIT` keys (default 1000)
//! counting `<other>`, into which further keys fold, with one warning in the report. The memory the text logs may take is the log store's
//! (`crate::logs`).

mod gauge;
mod keyed;
mod section;
mod site;
mod val;

pub use crate::logs::{
    log_bytes, Location, LogLimits, LogRing, DEFAULT_ENTRIES_LIMIT, DEFAULT_LOGS_LIMIT, DEFAULT_MAX_LOG_LEN,
    LOG_BYTES_BUDGET,
};
pub(crate) use gauge::gauge_keys;

/// Every `dbg!` expression (with its place) and `val!` key, with the id and kind their
/// timeline marks carry.
pub(crate) fn mark_names() -> Vec<(u64, u32, String)> {
    use crate::timeline::{MARK_DBG, MARK_VAL};
    let dbgs = crate::sync::lock(&site::DBG_ENTRIES)
        .iter()
        .map(|e| (MARK_DBG, e.id, format!("dbg! {}", e.site.expression())))
        .collect::<Vec<_>>();
    let vals = val::VALS.all().into_iter().map(|v| (MARK_VAL, v.id, format!("val! {}", v.key)));
    dbgs.into_iter().chain(vals).collect()
}
pub use gauge::{GaugeRef, GaugeSite};
pub use section::logs;
pub use site::DbgSite;
pub use val::{ValRef, ValSite};

pub(crate) use section::section;
