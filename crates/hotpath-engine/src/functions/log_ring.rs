//! The logs behind `log = true`: the `Debug` text of the last values a call site or
//! entry produced (function results, future outputs, channel messages, stream items),
//! kept per site or entry in a [`LogRing`](crate::debug::LogRing) of the debug
//! trackers' store (hooks in `logged.rs` and in each instrument), so they have its
//! limits: `HOTPATH_LOGS_LIMIT` records per log (default 50), each at most
//! `HOTPATH_MAX_LOG_LEN` characters (default 1536; a longer text keeps `max - 3`
//! characters and ends in `...`), every log within the store's shared byte budget, and
//! a panicking `Debug` contained (`<Debug panicked>`). Read by row ([`row_logs`]) for
//! `GET /{section}/{name}/logs` and the MCP tool.
//!
//! Cost, only where `log = true` was asked: formatting (bounded by the length limit,
//! outside any lock), then one uncontended lock of the site's own log.

use std::fmt::Debug;
use std::sync::{Mutex, OnceLock};

use hotpath_model::{DebugLog, LoggedRow, RowLogs};

use crate::debug::LogRing;
use crate::memory;
use crate::sync::lock;

/// Whose values a log keeps: the section (`functions_timing`, `futures`, `channels`,
/// `streams`) and the row's name, fixed when the first value is logged.
pub(crate) struct Owner {
    pub(crate) instrument: &'static str,
    pub(crate) name: String,
}

/// The log of one site or entry.
pub(crate) struct RowLog {
    owner: Owner,
    log: LogRing,
}

/// Every row log, for the readers by name.
static LOGS: Mutex<Vec<&'static RowLog>> = Mutex::new(Vec::new());

/// Where a site or entry keeps its log, made on its first logged value.
pub(crate) struct LogSlot(OnceLock<&'static RowLog>);

impl LogSlot {
    pub(crate) const fn new() -> Self {
        Self(OnceLock::new())
    }

    /// Records `value` into the log of the entry `name` of `instrument`.
    pub(crate) fn record_entry(&self, instrument: &'static str, name: &str, value: &dyn Debug) {
        self.ring(|| Owner { instrument, name: name.to_string() }).push(value);
    }

    /// Records a value's text, made earlier by [`debug_text`] (a channel message is
    /// formatted before the send moves it and kept only if the send succeeds).
    pub(crate) fn record_text(&self, instrument: &'static str, name: &str, text: DebugText) {
        self.ring(|| Owner { instrument, name: name.to_string() }).log.append_text(&text.text, text.cut);
    }

    /// The log, made (and registered for the readers) on first use.
    pub(crate) fn ring(&self, owner: impl FnOnce() -> Owner) -> &'static RowLog {
        self.0.get_or_init(|| {
            memory::untracked(|| {
                let log: &'static RowLog = Box::leak(Box::new(RowLog { owner: owner(), log: LogRing::new() }));
                memory::allocated(std::mem::size_of::<RowLog>());
                lock(&LOGS).push(log);
                log
            })
        })
    }

    /// The log, if a value was logged.
    pub(crate) fn get(&self) -> Option<&'static RowLog> {
        self.0.get().copied()
    }
}

/// The logged values of the row `name` of `section` (`functions_timing`, `futures`,
/// `channels` or `streams`; `sql`, `http` and `server` rows log every execution or
/// request, see `services::logs`), newest first; rows of one name are merged by time.
/// `None` when that row logged nothing.
pub fn row_logs(section: &str, name: &str) -> Option<RowLogs> {
    let logs: Vec<&'static LogRing> =
        all_logs().into_iter().filter(|(s, n, _)| *s == section && n == name).map(|(_, _, l)| l).collect();
    if logs.is_empty() {
        return None;
    }
    let mut out = RowLogs::default();
    (out.section, out.name) = (section.to_string(), name.to_string());
    for log in logs {
        out.total += log.total();
        out.logs.extend(log.logs());
    }
    out.logs.sort_by_key(|l| std::cmp::Reverse(l.at_ns));
    out.logs.truncate(crate::debug::current_limits().per_entry);
    Some(out)
}

/// Every row's log: the `log = true` ones, then the SQL, HTTP and server rows' own
/// (`services::logs`), as (section, row name, log).
fn all_logs() -> Vec<(&'static str, String, &'static LogRing)> {
    let logs = lock(&LOGS).clone();
    #[allow(unused_mut)]
    let mut all: Vec<_> = logs.into_iter().map(|l| (l.owner.instrument, l.owner.name.clone(), &l.log)).collect();
    #[cfg(feature = "services")]
    all.extend(crate::services::logs::row_logs());
    all
}

/// Whether any row logged a value.
pub(crate) fn any_logged() -> bool {
    let logged = lock(&LOGS).iter().any(|l| l.log.total() > 0);
    #[cfg(feature = "services")]
    let logged = logged || crate::services::logs::any_logged();
    logged
}

/// One summary per logged row (sites of one name merged), by section then name.
pub(crate) fn logged_rows() -> Vec<LoggedRow> {
    let mut rows: Vec<LoggedRow> = Vec::new();
    for (section, name, log) in all_logs() {
        let (total, newest) = log.summary();
        let Some(newest) = newest.filter(|_| total > 0) else { continue };
        let name = name.as_str();
        let index = match rows.iter().position(|r| r.section == section && r.name == name) {
            Some(i) => i,
            None => {
                let mut row = LoggedRow::default();
                (row.section, row.name) = (section.to_string(), name.to_string());
                rows.push(row);
                rows.len() - 1
            }
        };
        let row = &mut rows[index];
        row.total += total;
        row.kept += log.kept();
        if row.total == total || newest.at_ns >= row.last_at_ns {
            (row.value, row.cut, row.last_at_ns) = (newest.value.unwrap_or_default(), newest.cut, newest.at_ns);
        }
    }
    rows.sort_by(|a, b| (&a.section, &a.name).cmp(&(&b.section, &b.name)));
    rows
}

/// The logged values of the row `name` of `instrument`, oldest first: (nanoseconds
/// since the session started, text).
pub fn logs_named(instrument: &str, name: &str) -> Vec<(u64, String)> {
    let mut logs = row_logs(instrument, name).map(|r| r.logs).unwrap_or_default();
    logs.reverse();
    logs.into_iter().map(pair).collect()
}

fn pair(log: DebugLog) -> (u64, String) {
    (log.at_ns, log.value.unwrap_or_default())
}

impl RowLog {
    pub(crate) fn push(&'static self, value: &dyn Debug) {
        self.log.append(value, None);
    }

    /// The kept values, oldest first: (nanoseconds since the session started, text).
    pub(crate) fn snapshot(&self) -> Vec<(u64, String)> {
        let mut logs = self.log.logs();
        logs.reverse();
        logs.into_iter().map(pair).collect()
    }
}

/// A value's `Debug` text made ahead of logging it, and whether it was cut.
pub(crate) struct DebugText {
    text: String,
    cut: bool,
}

/// `value`'s `Debug` text cut to `HOTPATH_MAX_LOG_LEN` characters (`debug::write_capped`).
pub(crate) fn debug_text(value: &dyn Debug) -> DebugText {
    memory::untracked(|| {
        let mut text = String::new();
        let cut = crate::debug::write_capped(&mut text, value, limits().1);
        DebugText { text, cut }
    })
}

/// Records per ring and characters per record: the log limits the session resolved
/// (`HOTPATH_LOGS_LIMIT`, `HOTPATH_MAX_LOG_LEN`), shared with the debug trackers.
fn limits() -> (usize, usize) {
    let limits = crate::debug::current_limits();
    (limits.per_entry, limits.max_len)
}

#[cfg(test)]
mod tests {
    use super::{limits, logs_named, row_logs, LogSlot, Owner};

    fn bounded_debug(value: &dyn std::fmt::Debug, max: usize) -> String {
        let mut out = String::new();
        crate::debug::write_capped(&mut out, value, max);
        out
    }

    #[test]
    fn a_log_keeps_the_last_values_up_to_the_limit_merged_by_name() {
        static SLOT: LogSlot = LogSlot::new();
        static TWIN: LogSlot = LogSlot::new();
        let (keep, _) = limits();
        let _alone = crate::sync::lock(&crate::debug::TEST_LOGS);
        let owner = || Owner { instrument: "channels", name: "ring-test".into() };
        // Without the session switch (unit tests): the store's append, as a session would.
        for i in 0..keep + 10 {
            SLOT.ring(owner).log.append_keyed(&i, None, None);
        }
        let texts: Vec<String> = logs_named("channels", "ring-test").into_iter().map(|(_, t)| t).collect();
        let expected: Vec<String> = (10..keep + 10).map(|i| i.to_string()).collect();
        assert_eq!(texts, expected, "oldest first");
        assert!(logs_named("streams", "ring-test").is_empty(), "logs are per section");
        assert_eq!(row_logs("channels", "ring-test").map(|r| r.total), Some(keep as u64 + 10));
        // Two sites of one name merge (their order, by time, is not checked here: other
        // unit tests move the log clock's base).
        static ONE: LogSlot = LogSlot::new();
        let twin = || Owner { instrument: "channels", name: "merge-test".into() };
        ONE.ring(twin).log.append_keyed(&1, None, None);
        ONE.ring(twin).log.append_keyed(&2, None, None);
        TWIN.ring(twin).log.append_keyed(&"twin", None, None);
        let merged = row_logs("channels", "merge-test").expect("logged");
        assert_eq!((merged.section.as_str(), merged.total, merged.logs.len()), ("channels", 3, 3));
        let mut values: Vec<String> = merged.logs.iter().filter_map(|l| l.value.clone()).collect();
        values.sort();
        assert_eq!(values, ["\"twin\"", "1", "2"]);
        assert!(row_logs("channels", "never").is_none());
    }

    #[test]
    fn text_is_cut_to_the_limit_with_an_ellipsis() {
        assert_eq!(bounded_debug(&"abc", 10), "\"abc\"");
        assert_eq!(bounded_debug(&"abcdefghij", 8), "\"abcd...");
        assert_eq!(bounded_debug(&"ééééé", 6), "\"éé...");
        struct Bad;
        impl std::fmt::Debug for Bad {
            fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                panic!("bad Debug")
            }
        }
        assert_eq!(bounded_debug(&Bad, 10), "<Debug panicked>");
    }
}
