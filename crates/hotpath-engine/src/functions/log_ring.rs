//! The store behind `log = true`: the `Debug` text of the last values a call site or
//! entry produced (function results, future outputs, channel messages, stream items),
//! kept per site or entry in a small bounded ring (hooks in `logged.rs` and in each
//! instrument).
//!
//! Interim store: the shared log store of the debug trackers will replace the rings;
//! the hooks and the readers ([`logs_named`]) keep their shapes. Limits: those of the
//! debug trackers, `HOTPATH_LOGS_LIMIT` records per ring (default 50, 0 keeps none) of
//! at most `HOTPATH_MAX_LOG_LEN` characters (default 1536; a longer text keeps
//! `max - 3` characters and ends in `...`).
//!
//! Cost, only where `log = true` was asked: formatting (bounded by the length limit,
//! outside any lock), then one uncontended lock of the site's own ring. Memory: at
//! most limit × length per ring, one ring per logged site or entry.

use std::collections::VecDeque;
use std::fmt::Debug;
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::memory;
use crate::sync::lock;

/// Whose values a ring keeps: the section (`functions`, `futures`, `channels`,
/// `streams`) and the row's name, fixed when the first value is logged.
pub(crate) struct Owner {
    pub(crate) instrument: &'static str,
    pub(crate) name: String,
}

/// The last records of one site or entry, oldest first: (Unix time in ms, text).
pub(crate) struct LogRing {
    owner: Owner,
    records: Mutex<VecDeque<(u64, String)>>,
}

/// Every ring, for the readers by name.
static RINGS: Mutex<Vec<&'static LogRing>> = Mutex::new(Vec::new());

/// Where a site or entry keeps its ring, made on its first logged value.
pub(crate) struct LogSlot(OnceLock<&'static LogRing>);

impl LogSlot {
    pub(crate) const fn new() -> Self {
        Self(OnceLock::new())
    }

    /// Records `value` into the ring of the entry `name` of `instrument`.
    pub(crate) fn record_entry(&self, instrument: &'static str, name: &str, value: &dyn Debug) {
        self.record_text(instrument, name, debug_text(value));
    }

    /// Records a value's text, made earlier by [`debug_text`] (a channel message is
    /// formatted before the send moves it and kept only if the send succeeds).
    pub(crate) fn record_text(&self, instrument: &'static str, name: &str, text: String) {
        self.ring(|| Owner { instrument, name: name.to_string() }).push_text(text);
    }

    /// The ring, made (and registered for the readers) on first use.
    pub(crate) fn ring(&self, owner: impl FnOnce() -> Owner) -> &'static LogRing {
        self.0.get_or_init(|| {
            memory::untracked(|| {
                let ring: &'static LogRing = Box::leak(Box::new(LogRing { owner: owner(), records: Mutex::default() }));
                memory::allocated(std::mem::size_of::<LogRing>());
                lock(&RINGS).push(ring);
                ring
            })
        })
    }

    /// The ring, if a value was logged.
    pub(crate) fn get(&self) -> Option<&'static LogRing> {
        self.0.get().copied()
    }
}

/// The logged values of the row `name` of `instrument` (`functions`, `futures`,
/// `channels` or `streams`), oldest first; rows of one name are merged by time.
pub fn logs_named(instrument: &str, name: &str) -> Vec<(u64, String)> {
    let rings = lock(&RINGS).clone();
    let mut out: Vec<(u64, String)> = rings
        .iter()
        .filter(|ring| ring.owner.instrument == instrument && ring.owner.name == name)
        .flat_map(|ring| ring.snapshot())
        .collect();
    out.sort_by_key(|(ms, _)| *ms);
    out
}

impl LogRing {
    pub(crate) fn push(&self, value: &dyn Debug) {
        self.push_text(debug_text(value));
    }

    fn push_text(&self, text: String) {
        let (keep, _) = limits();
        if keep == 0 {
            return;
        }
        memory::untracked(|| {
            let ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
            let added = text.capacity();
            let mut records = lock(&self.records);
            while records.len() >= keep {
                if let Some((_, old)) = records.pop_front() {
                    memory::freed(old.capacity());
                }
            }
            records.push_back((ms, text));
            memory::allocated(added);
        });
    }

    pub(crate) fn snapshot(&self) -> Vec<(u64, String)> {
        lock(&self.records).iter().cloned().collect()
    }
}

/// `value`'s `Debug` text cut to `HOTPATH_MAX_LOG_LEN` characters (see [`bounded_debug`]).
pub(crate) fn debug_text(value: &dyn Debug) -> String {
    memory::untracked(|| bounded_debug(value, limits().1))
}

/// Records per ring and characters per record: the log limits the session resolved
/// (`HOTPATH_LOGS_LIMIT`, `HOTPATH_MAX_LOG_LEN`), shared with the debug trackers.
fn limits() -> (usize, usize) {
    let limits = crate::debug::current_limits();
    (limits.per_entry, limits.max_len)
}

/// `value`'s `Debug` text, at most `max` characters: a longer one keeps `max - 3` and
/// ends in `...`. A panicking `Debug` gives `<Debug panicked>`; the panic stays here.
/// The same capped writer as the debug trackers' (`debug::write_capped`).
pub(crate) fn bounded_debug(value: &dyn Debug, max: usize) -> String {
    let mut out = String::new();
    crate::debug::write_capped(&mut out, value, max);
    out
}

#[cfg(test)]
mod tests {
    use super::{bounded_debug, limits, logs_named, LogSlot};

    #[test]
    fn a_ring_keeps_the_last_values_up_to_the_limit() {
        static SLOT: LogSlot = LogSlot::new();
        let (keep, _) = limits();
        for i in 0..keep + 10 {
            SLOT.record_entry("channels", "ring-test", &i);
        }
        let texts: Vec<String> = logs_named("channels", "ring-test").into_iter().map(|(_, t)| t).collect();
        let expected: Vec<String> = (10..keep + 10).map(|i| i.to_string()).collect();
        assert_eq!(texts, expected);
        assert!(logs_named("streams", "ring-test").is_empty(), "rings are per instrument");
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
