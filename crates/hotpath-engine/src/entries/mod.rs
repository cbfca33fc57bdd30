//! Call sites of the wrapping macros (`io!`, `stream!`, `channel!`, `mutex!`,
//! `rw_lock!`) and the report entries behind them: one mechanism for all five.
//!
//! Each macro expansion owns a `static` [`Site<K>`], `K` being its instrument's entry
//! data (`IoEntry`, `StreamEntry`, `ChannelEntry`, `MutexEntry`, `RwLockEntry`). A
//! wrapped value belongs to an [`Entry<K>`], keyed by its site, the type it carries
//! (the wrapped, message, item or data type) and its label, so values created over and
//! over at one site (a channel per request) share one entry and memory stays bounded by
//! call sites × types × labels. With `iter = true` every value gets an entry of its own.
//!
//! - Finding the entry happens once per wrapped value, never per operation: a lock-free
//!   walk of the site's list of entries (usually one), comparing the type name and the
//!   label. Only the first value of a (site, type, label), and every `iter = true`
//!   value, takes the instrument's registry lock, which numbers entries densely per
//!   instrument (the ids `io!`'s per-thread cells are indexed by).
//! - The label is compared as a string, so it may be computed at run time: rows are
//!   keyed by the string, whatever produced it.
//! - Caps: per instrument, at most `MAX_INSTANCES` (1,000) `iter = true` values get
//!   entries of their own, and at most `MAX_SHARED` (2,000) (site, type, label)
//!   entries are made otherwise. Past a cap, values count in their site's overflow
//!   entry for their type, a row named `<other>`, and the report header says so once.
//!   Past the caps, creating a value stays lock-free (the overflow entry is on the
//!   site's list).
//! - Entries are never freed (like the sites): their number is bounded by the caps
//!   plus one overflow entry per site and type.

mod names;
mod registry;
mod site;

pub(crate) use names::short_type_name;
pub(crate) use registry::{any, Registry};
pub use site::Site;
pub(crate) use site::{Entry, Instrument};

#[cfg(test)]
mod tests;
