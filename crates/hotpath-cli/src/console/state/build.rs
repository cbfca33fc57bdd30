//! The table of a view: `functions_timing`, `io`, `threads` and `tokio_runtime` typed
//! (`timing.rs`, `io.rs`, `threads.rs`, `runtimes.rs`), the sections of the Data flow,
//! Services and Debug tabs typed through their rows' `RowMetrics` (`typed.rs`); all but
//! the first fall back to the generic table (`generic.rs`) for a report their types
//! cannot read, which also reads any section the model has no type for.

use hotpath_model::Section;
use serde_json::Value;

use super::fields::row_lists;
use super::history::History;
use super::table::Table;
use super::{generic, io, runtimes, threads, timing, typed};

/// The table of `list` (or the section's first list) of section `of`, whose JSON is `section`.
pub(crate) fn table(
    of: Section,
    section: &Value,
    list: Option<&str>,
    meta: &Value,
    history: &History,
) -> Option<Table> {
    let typed = match of {
        Section::FunctionsTiming => return timing::table(section, meta, history),
        Section::Io => io::table(section, meta, history),
        Section::Threads => threads::table(section),
        Section::TokioRuntime => runtimes::table(section, history),
        // The typed row list is `rows` (the Debug tab's `logged` list is another view).
        _ if list.is_none_or(|l| l == "rows") => typed::table(of, section, history),
        _ => None,
    };
    if typed.is_some() {
        return typed;
    }
    let lists = row_lists(section);
    match list.map(str::to_string).or_else(|| lists.into_iter().next()) {
        Some(list) => Some(generic::rows(of.key(), section[list.as_str()].as_array()?, history)),
        None => generic::fields(section),
    }
}
