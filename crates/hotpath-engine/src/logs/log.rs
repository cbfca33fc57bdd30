//! The log store: a bounded log of `Debug` values per entry, shared by the trackers
//! and open to other instruments (see the module docs of `debug`).

use std::fmt::Debug;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;

use hotpath_model::DebugLog;

use super::budget;
use super::limits::{self, Timebase};
use super::location::Location;
use super::ring::{Record, Ring};
use super::text;
use crate::sync::lock;
use crate::{clock, memory, switch};

/// One `Debug` value as logged.
#[derive(Default)]
pub(crate) struct TextRecord {
    at: u64,
    text: String,
    cut: bool,
    thread: String,
    source: Option<&'static Location>,
    /// The real key, on records of an `<other>` entry.
    key: String,
}

impl Record for TextRecord {
    fn heap_bytes(&self) -> usize {
        self.text.capacity() + self.thread.capacity() + self.key.capacity()
    }
}

impl TextRecord {
    fn to_log(&self, seq: u64, time: Timebase) -> DebugLog {
        let mut log = DebugLog::default();
        log.seq = seq;
        log.at_ns = time.ns(self.at);
        log.thread = self.thread.clone();
        if let Some(source) = self.source {
            log.file = Some(source.file.to_string());
            log.line = Some(source.line);
            log.column = Some(source.column);
        }
        log.key = (!self.key.is_empty()).then(|| self.key.clone());
        log.value = Some(self.text.clone());
        log.cut = self.cut;
        log
    }
}

/// A text whose `Debug` is the text itself.
struct Verbatim<'a>(&'a str);

impl Debug for Verbatim<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// A bounded log of `Debug` values: the last `HOTPATH_LOGS_LIMIT` records, each cut at
/// `HOTPATH_MAX_LOG_LEN` characters, with the time, the thread and optionally the
/// source location. `const`-constructible, so an instrument can keep one in a `static`
/// call site (or a leaked entry: appending needs `&'static self`). All logs share a byte
/// budget (`budget`): past it their oldest records are dropped.
pub struct LogRing {
    ring: Mutex<Ring<TextRecord>>,
    /// Whether the budget knows this log.
    registered: AtomicBool,
}

impl Default for LogRing {
    fn default() -> Self {
        Self::new()
    }
}

impl LogRing {
    /// An empty log.
    pub const fn new() -> Self {
        Self { ring: Mutex::new(Ring::new()), registered: AtomicBool::new(false) }
    }

    /// Appends `value`'s `Debug` text, recorded now on the calling thread; does nothing
    /// unless a session records. The text is formatted before the log's lock is taken,
    /// at most `HOTPATH_MAX_LOG_LEN` characters of it; the lock is then held for a copy.
    #[inline]
    pub fn append(&'static self, value: &dyn Debug, source: Option<&'static Location>) {
        if switch::enabled() {
            self.append_keyed(value, source, None);
        }
    }

    /// [`append`](Self::append) without the switch check, with the real key of a
    /// folded (`<other>`) entry.
    #[inline(never)]
    pub(crate) fn append_keyed(&'static self, value: &dyn Debug, source: Option<&'static Location>, key: Option<&str>) {
        self.append_record(value, source, key, false);
    }

    /// Appends a text made earlier by `text::write_capped` (a channel message is
    /// formatted before the send moves it, and logged only once sent), with its cut flag.
    pub(crate) fn append_text(&'static self, text: &str, cut: bool) {
        if switch::enabled() {
            self.append_record(&Verbatim(text), None, None, cut);
        }
    }

    fn append_record(
        &'static self,
        value: &dyn Debug,
        source: Option<&'static Location>,
        key: Option<&str>,
        was_cut: bool,
    ) {
        let limits = limits::current();
        memory::untracked(|| {
            if !self.registered.load(Relaxed) && !self.registered.swap(true, Relaxed) {
                budget::register(self);
            }
            text::with_text(value, limits.max_len, |text, cut| {
                let at = clock::now();
                let (before, after) = lock(&self.ring).push(limits.per_entry, |r| {
                    r.at = at;
                    r.text.clear();
                    r.text.push_str(text);
                    r.cut = cut || was_cut;
                    text::copy_thread_name(&mut r.thread);
                    r.source = source;
                    r.key.clear();
                    if let Some(key) = key {
                        r.key.push_str(super::text::cut_key(key, limits.max_len));
                    }
                });
                budget::changed(before, after);
            });
            budget::enforce();
        });
    }

    /// Records ever appended.
    pub fn total(&self) -> u64 {
        lock(&self.ring).total()
    }

    /// The kept records, newest first, with times in nanoseconds since the session started.
    pub fn logs(&self) -> Vec<DebugLog> {
        let time = Timebase::now();
        let keep = limits::current().per_entry;
        let ring = lock(&self.ring);
        ring.newest_first().take(keep).map(|(seq, r)| r.to_log(seq, time)).collect()
    }

    /// The record count and the newest record (times since the session started).
    pub(crate) fn summary(&self) -> (u64, Option<DebugLog>) {
        self.last(Timebase::now())
    }

    /// Records kept now (as [`logs`](Self::logs) returns them).
    pub(crate) fn kept(&self) -> usize {
        lock(&self.ring).newest_first().take(limits::current().per_entry).count()
    }

    /// The record count and the newest record, read under one lock.
    pub(crate) fn last(&self, time: Timebase) -> (u64, Option<DebugLog>) {
        let ring = lock(&self.ring);
        let newest = ring.newest_first().next().map(|(seq, r)| r.to_log(seq, time));
        (ring.total(), newest)
    }
}

impl budget::Evict for LogRing {
    fn drop_oldest(&self) -> Option<usize> {
        lock(&self.ring).drop_oldest()
    }
}

#[cfg(test)]
mod tests {
    use super::budget::{enforce_with, log_bytes};
    use super::*;

    #[test]
    fn past_the_budget_the_oldest_records_go_first() {
        let _alone = lock(&super::budget::TEST_LOGS);
        static A: LogRing = LogRing::new();
        static B: LogRing = LogRing::new();
        let text = "x".repeat(1000);
        for _ in 0..10 {
            A.append_keyed(&text, None, None);
            B.append_keyed(&text, None, None);
        }
        let held = log_bytes();
        // Other tests append concurrently: a budget well under what these two logs hold.
        enforce_with(held.saturating_sub(8_000));
        let (a, b) = (A.logs(), B.logs());
        assert!(a.len() + b.len() < 20, "records were dropped: {} {}", a.len(), b.len());
        for log in [&a, &b] {
            let seqs: Vec<u64> = log.iter().map(|l| l.seq).collect();
            let newest: Vec<u64> = (11 - log.len() as u64..=10).rev().collect();
            assert_eq!(seqs, newest, "the oldest went first");
        }
        assert_eq!((A.total(), B.total()), (10, 10), "the counts go on");
        assert!(log_bytes() < held);
    }
}
