//! The logs behind `log = true`: the `Debug` text of the last values a call site or
//! entry produced (function results, future outputs, channel messages, stream items),
//! kept per site or entry in a [`LogRing`] of the debug
//! trackers' store (hooks in `logged.rs` and in each instrument), so they have its
//! limits: `HOTPATH_LOGS_LIMIT` records per log (default 50), each at most
//! `HOTPATH_MAX_LOG_LEN` characters (default 1536; a longer text keeps `max - 3`
//! characters and ends in `...`), every log within the store's shared byte budget, and
//! a panicking `Debug` contained (`<Debug panicked>`). Read by row (`crate::row_logs`) for
//! `GET /{section}/{name}/logs` and the MCP tool.
//!
//! Cost, only where `log = true` was asked: formatting (bounded by the length limit,
//! outside any lock), then one uncontended lock of the site's own log.

use std::fmt::Debug;
use std::sync::{Mutex, OnceLock};

use hotpath_model::DebugLog;

use crate::logs::LogRing;
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

/// The `log = true` logs, as (section, row name, log), for the readers (`crate::row_logs`).
pub(crate) fn own_logs() -> Vec<(&'static str, String, &'static LogRing)> {
    lock(&LOGS).iter().map(|l| (l.owner.instrument, l.owner.name.clone(), &l.log)).collect()
}

pub(crate) fn pair(log: DebugLog) -> (u64, String) {
    (log.at_ns, log.value.unwrap_or_default())
}

impl RowLog {
    /// Its log in the store.
    #[cfg(test)]
    pub(crate) fn ring(&'static self) -> &'static LogRing {
        &self.log
    }

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

/// `value`'s `Debug` text cut to `HOTPATH_MAX_LOG_LEN` characters (`logs::write_capped`).
pub(crate) fn debug_text(value: &dyn Debug) -> DebugText {
    memory::untracked(|| {
        let mut text = String::new();
        let cut = crate::logs::write_capped(&mut text, value, limits().1);
        DebugText { text, cut }
    })
}

/// Records per ring and characters per record: the log limits the session resolved
/// (`HOTPATH_LOGS_LIMIT`, `HOTPATH_MAX_LOG_LEN`), shared with the debug trackers.
fn limits() -> (usize, usize) {
    let limits = crate::logs::current_limits();
    (limits.per_entry, limits.max_len)
}

#[cfg(test)]
mod tests {

    fn bounded_debug(value: &dyn std::fmt::Debug, max: usize) -> String {
        let mut out = String::new();
        crate::logs::write_capped(&mut out, value, max);
        out
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
