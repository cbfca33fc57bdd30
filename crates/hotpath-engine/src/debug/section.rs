//! The `debug` section (with the summary of `log = true` rows) and the logs endpoints'
//! data, read from the registries. Each
//! entry is locked briefly, one at a time: a tracker update waits at most for one
//! row's copy.

use hotpath_model::{DbgRow, DebugLogs, DebugRow, DebugTrackers, LoggedRow, TrackerKind, ValRow};

use super::gauge::GAUGES;
use super::site::DBG_ENTRIES;
use super::val::VALS;
use crate::logs::limits::{self, Timebase};
use crate::options::Options;
use crate::sync::lock;

/// Whether any tracker has an entry.
fn any() -> bool {
    !lock(&DBG_ENTRIES).is_empty() || !VALS.all().is_empty() || !GAUGES.all().is_empty()
}

/// Every tracker that recorded, and `logged` (the `log = true` rows of every
/// instrument with a value, gathered by the collector: `row_logs`), focus applied;
/// `None` when there is neither. Not cut by the row limit: the entries limit already
/// bounds the rows.
pub(crate) fn section(options: &Options, logged: Vec<LoggedRow>) -> Option<DebugTrackers> {
    if !any() && logged.is_empty() {
        return None;
    }
    let time = Timebase::now();
    let mut dbg: Vec<DbgRow> = lock(&DBG_ENTRIES).clone().into_iter().filter_map(|e| dbg_row(e, time)).collect();
    dbg.sort_by(|a, b| (&a.file, a.line, a.column, a.id).cmp(&(&b.file, b.line, b.column, b.id)));
    let mut vals: Vec<ValRow> = VALS.all().into_iter().filter_map(|e| val_row(e, time)).collect();
    vals.sort_by(|a, b| (a.other, &a.name).cmp(&(b.other, &b.name)));
    let mut gauges: Vec<_> = GAUGES.all().into_iter().filter_map(|e| e.row(time)).collect();
    gauges.sort_by(|a, b| (a.other, &a.name).cmp(&(b.other, &b.name)));
    let rows: Vec<DebugRow> = dbg
        .into_iter()
        .map(DebugRow::Dbg)
        .chain(vals.into_iter().map(DebugRow::Val))
        .chain(gauges.into_iter().map(DebugRow::Gauge))
        .collect();
    let limits = limits::current();
    let mut section = DebugTrackers::default();
    section.total_rows = rows.len();
    section.rows = rows;
    section.rows.retain(|r| options.focus.as_ref().is_none_or(|f| f.matches(r.name())));
    section.logged = logged;
    section.logged.retain(|r| options.focus.as_ref().is_none_or(|f| f.matches(&r.name)));
    (section.logs_limit, section.max_log_len, section.entries_limit) =
        (limits.per_entry, limits.max_len, limits.entries);
    Some(section)
}

fn dbg_row(entry: &super::site::DbgEntry, time: Timebase) -> Option<DbgRow> {
    let (count, last) = entry.log.last(time);
    let last = last?;
    let location = entry.site.location();
    let mut row = DbgRow::default();
    row.id = entry.id;
    row.name = entry.site.expression().to_string();
    (row.file, row.line, row.column) = (location.file.to_string(), location.line, location.column);
    row.count = count;
    (row.value, row.cut, row.last_at_ns, row.thread) =
        (last.value.unwrap_or_default(), last.cut, last.at_ns, last.thread);
    Some(row)
}

fn val_row(entry: &super::val::ValEntry, time: Timebase) -> Option<ValRow> {
    let (count, last) = entry.log.last(time);
    let last = last?;
    let mut row = ValRow::default();
    row.id = entry.id;
    row.name = entry.key.to_string();
    row.other = entry.other;
    row.count = count;
    (row.value, row.cut, row.last_at_ns, row.thread) =
        (last.value.unwrap_or_default(), last.cut, last.at_ns, last.thread);
    (row.file, row.line, row.column) =
        (last.file.unwrap_or_default(), last.line.unwrap_or(0), last.column.unwrap_or(0));
    Some(row)
}

/// The kept log records of one tracker, newest first, or `None` for an unknown id.
pub fn logs(kind: TrackerKind, id: u32) -> Option<DebugLogs> {
    let time = Timebase::now();
    let mut out = DebugLogs::default();
    (out.kind, out.id) = (kind, id);
    match kind {
        TrackerKind::Dbg => {
            let entry = lock(&DBG_ENTRIES).get(id as usize).copied()?;
            out.name = entry.site.expression().to_string();
            (out.total, out.logs) = (entry.log.total(), entry.log.logs());
        }
        TrackerKind::Val => {
            let entry = VALS.by_id(id)?;
            out.name = entry.key.to_string();
            (out.total, out.logs) = (entry.log.total(), entry.log.logs());
        }
        TrackerKind::Gauge => {
            let entry = GAUGES.by_id(id)?;
            out.name = entry.key_str().to_string();
            (out.total, out.logs) = entry.logs(time);
        }
        _ => return None,
    }
    Some(out)
}
