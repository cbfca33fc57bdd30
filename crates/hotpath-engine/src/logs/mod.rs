//! Logged values, the facility under every `log = true` row and the debug macros:
//! bounded rings of recent values (`log`, `ring`, `log_ring`), their text (`text`,
//! captured under a panic guard by `contain`), the call site that wrote them
//! (`location`), and the limits and byte budget that bound them (`limits`, `budget`).
//!
//! [`LogRing`] is a log of `Debug` values that any instrument can keep per site or
//! entry: `const`-constructible (it fits in a macro's `static`), bounded, and cheap on
//! the calling thread. [`LogRing::append`]`(&value, source)` records the value's
//! `Debug` text with the time, the thread's name and an optional [`Location`]:
//!
//! - nothing happens unless a session records (`switch::enabled()`, one relaxed load);
//! - the text is formatted on the calling thread into a per-thread scratch buffer,
//!   outside any lock, through a writer that stops after `HOTPATH_MAX_LOG_LEN`
//!   characters (default 1536): a longer text keeps `max - 3` characters and ends in
//!   `...`, and is flagged `cut`; a `Debug` impl that panics is contained and logged as
//!   `<Debug panicked>`, unseen by the program's panic hook (`contain`);
//! - the record is then copied into the ring under the log's own lock: the ring keeps
//!   the last `HOTPATH_LOGS_LIMIT` records (default 50) and overwrites the oldest in
//!   place, reusing its strings' capacity, so a full ring allocates nothing;
//! - [`LogRing::logs`] returns the kept records newest first as model
//!   [`DebugLog`](hotpath_model::DebugLog)s (times in nanoseconds since the session
//!   started), [`LogRing::total`] how many were ever appended.
//!
//! `log = true` on `#[measure]`, `#[future_fn]`, `channel!`, `future!` and `stream!`
//! keeps a `LogRing` per site or entry (`log_ring`) and appends the
//! result, output, message or item; `/{section}/{name}/logs` serves its `logs()`, and
//! the `debug` section lists those rows under `logged`. Memory per ring: at most
//! `HOTPATH_LOGS_LIMIT` records of at most `4 × HOTPATH_MAX_LOG_LEN` bytes of text
//! (UTF-8), plus the thread name, and all rings within the shared budget below.
//!
//! Memory: the text logs (`dbg!`, `val!`, `log = true`) hold at most
//! [`LOG_BYTES_BUDGET`] (32 MiB) of records together: past it the oldest record of each
//! log is dropped in turn (`budget`); without that, (dbg! sites + entries limit) × logs
//! limit × `4 × max len` bytes could be reached. Besides: one slot array per log
//! (logs limit × ~120 bytes), gauges' numeric rings (entries limit × logs limit × ~150
//! bytes with their thread names) and one scratch buffer of `4 × max len` per thread
//! that formatted a value. Updates from many threads are exact: each entry has a lock,
//! held only to copy one record.
//!
//! Below the instruments: functions, channels, streams, services and `dbg!`/`val!`/
//! `gauge!` all write here, and nothing here knows which of them did.

pub(crate) mod budget;
mod contain;
pub(crate) mod limits;
pub(crate) mod location;
pub(crate) mod log;
pub(crate) mod log_ring;
pub(crate) mod ring;
pub(crate) mod text;

pub use budget::{log_bytes, LOG_BYTES_BUDGET};
pub use limits::{LogLimits, DEFAULT_ENTRIES_LIMIT, DEFAULT_LOGS_LIMIT, DEFAULT_MAX_LOG_LEN};
pub use location::Location;
pub use log::LogRing;

#[cfg(test)]
pub(crate) use budget::TEST_LOGS;
pub(crate) use contain::install_hook;
pub(crate) use limits::{configure, current as current_limits, start_now};
pub(crate) use log_ring::{debug_text, DebugText, LogSlot};
pub(crate) use text::{cut_key, write_capped};
