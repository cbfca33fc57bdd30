//! The table of a view: `functions_timing`, `io`, `threads` and `tokio_runtime` typed
//! (`timing.rs`, `io.rs`, `threads.rs`, `runtimes.rs`; the last three fall back to the
//! generic table for a report their types cannot read), any other section
//! generically (`generic.rs`).

use serde_json::Value;

use super::fields::row_lists;
use super::history::History;
use super::table::Table;
use super::{generic, io, runtimes, threads, timing};

/// The table of `list` (or the section's first list) of section `name`.
pub(crate) fn table(name: &str, section: &Value, list: Option<&str>, meta: &Value, history: &History) -> Option<Table> {
    if name == timing::SECTION {
        return timing::table(section, meta, history);
    }
    let typed = match name {
        io::SECTION => io::table(section, meta, history),
        threads::SECTION => threads::table(section),
        runtimes::SECTION => runtimes::table(section, history),
        _ => None,
    };
    if typed.is_some() {
        return typed;
    }
    let lists = row_lists(section);
    match list.map(str::to_string).or_else(|| lists.into_iter().next()) {
        Some(list) => Some(generic::rows(name, section[list.as_str()].as_array()?, history)),
        None => generic::fields(section),
    }
}
