//! `gauge!(key).set(x).inc(d).dec(d)`: a number per key with its minimum, maximum,
//! update count, a 64-value history for a sparkline and a log of operations. No
//! formatting: an update takes the entry's lock and writes a few numbers and the
//! thread's name into a reused slot.

use std::sync::Mutex;

use hotpath_model::{DebugLog, GaugeRow};

use super::keyed::{Keyed, KeyedEntry};
use super::site::KeySite;
use crate::logs::limits::{self, Timebase};
use crate::logs::location::Location;
use crate::logs::ring::{Record, Ring};
use crate::logs::text;
use crate::sync::lock;
use crate::{clock, memory, switch, timeline};

/// Values kept for the sparkline.
const HISTORY: usize = 64;

/// What an update did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Op {
    #[default]
    Set,
    Inc,
    Dec,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Self::Set => "set",
            Self::Inc => "inc",
            Self::Dec => "dec",
        }
    }
}

#[derive(Default)]
struct GaugeRecord {
    at: u64,
    op: Op,
    operand: f64,
    current: f64,
    thread: String,
    source: Option<&'static Location>,
    key: String,
}

impl Record for GaugeRecord {
    fn heap_bytes(&self) -> usize {
        self.thread.capacity() + self.key.capacity()
    }
}

struct State {
    updates: u64,
    current: f64,
    min: f64,
    max: f64,
    history: [f64; HISTORY],
    /// Where the next history value goes.
    history_next: usize,
    ring: Ring<GaugeRecord>,
}

/// A `gauge!` key's numbers and log.
pub(crate) struct GaugeEntry {
    pub(crate) id: u32,
    key: Box<str>,
    other: bool,
    state: Mutex<State>,
}

pub(crate) static GAUGES: Keyed<GaugeEntry> = Keyed::new("gauge!");

/// Every gauge key with its id (what timeline counter events carry).
pub(crate) fn gauge_keys() -> Vec<(u32, String)> {
    GAUGES.all().iter().map(|g| (g.id, g.key.to_string())).collect()
}

impl KeyedEntry for GaugeEntry {
    fn registry() -> &'static Keyed<Self> {
        &GAUGES
    }

    fn create(id: u32, key: &str, other: bool) -> Self {
        let state = State {
            updates: 0,
            current: 0.0,
            min: 0.0,
            max: 0.0,
            history: [0.0; HISTORY],
            history_next: 0,
            ring: Ring::new(),
        };
        Self { id, key: key.into(), other, state: Mutex::new(state) }
    }

    fn key(&self) -> &str {
        &self.key
    }

    fn is_other(&self) -> bool {
        self.other
    }
}

impl GaugeEntry {
    /// Applies one operation; inc and dec of a gauge never set start from 0.
    fn apply(&self, op: Op, operand: f64, source: &'static Location, key: Option<&str>) {
        let limits = limits::current();
        let at = clock::now();
        let current = memory::untracked(|| {
            let mut s = lock(&self.state);
            let current = match op {
                Op::Set => operand,
                Op::Inc => s.current + operand,
                Op::Dec => s.current - operand,
            };
            if s.updates == 0 {
                (s.min, s.max) = (current, current);
            } else {
                (s.min, s.max) = (s.min.min(current), s.max.max(current));
            }
            s.updates += 1;
            s.current = current;
            let slot = s.history_next;
            s.history[slot] = current;
            s.history_next = (slot + 1) % HISTORY;
            s.ring.push(limits.per_entry, |r| {
                (r.at, r.op, r.operand, r.current, r.source) = (at, op, operand, current, Some(source));
                text::copy_thread_name(&mut r.thread);
                r.key.clear();
                if let Some(key) = key {
                    r.key.push_str(crate::logs::cut_key(key, limits.max_len));
                }
            });
            current
        });
        if timeline::on() {
            timeline::instant(timeline::Kind::Gauge, self.id, at, current.to_bits());
        }
    }

    /// The report row, or `None` before the first update.
    pub(crate) fn row(&self, time: Timebase) -> Option<GaugeRow> {
        let s = lock(&self.state);
        let last = s.ring.newest()?;
        let mut row = GaugeRow::default();
        row.id = self.id;
        row.name = self.key.to_string();
        row.other = self.other;
        row.updates = s.updates;
        (row.current, row.min, row.max) = (s.current, s.min, s.max);
        row.last_at_ns = time.ns(last.at);
        row.thread = last.thread.clone();
        if let Some(source) = last.source {
            (row.file, row.line, row.column) = (source.file.to_string(), source.line, source.column);
        }
        let kept = (s.updates as usize).min(HISTORY);
        row.history = (0..kept).map(|back| s.history[(s.history_next + HISTORY - kept + back) % HISTORY]).collect();
        Some(row)
    }

    /// The kept records, newest first, and the number ever written.
    pub(crate) fn logs(&self, time: Timebase) -> (u64, Vec<DebugLog>) {
        let keep = limits::current().per_entry;
        let s = lock(&self.state);
        let logs = s.ring.newest_first().take(keep).map(|(seq, r)| {
            let mut log = DebugLog::default();
            (log.seq, log.at_ns, log.thread) = (seq, time.ns(r.at), r.thread.clone());
            if let Some(source) = r.source {
                (log.file, log.line, log.column) =
                    (Some(source.file.to_string()), Some(source.line), Some(source.column));
            }
            log.key = (!r.key.is_empty()).then(|| r.key.clone());
            (log.op, log.operand, log.current) = (Some(r.op.name().to_string()), Some(r.operand), Some(r.current));
            log
        });
        (s.ring.total(), logs.collect())
    }

    pub(crate) fn key_str(&self) -> &str {
        &self.key
    }
}

/// A `gauge!` call site, emitted as a `static` by the macro.
pub struct GaugeSite(KeySite<GaugeEntry>);

impl GaugeSite {
    /// A site; `const` for statics.
    pub const fn new(file: &'static str, line: u32, column: u32) -> Self {
        Self(KeySite::new(file, line, column))
    }

    /// The handle for `key`: its entry while a session records, else nothing to update.
    #[inline]
    pub fn handle(&'static self, key: &str) -> GaugeRef {
        GaugeRef { site: &self.0.location, entry: self.0.entry(key) }
    }
}

/// What `gauge!(key)` resolved to.
pub struct GaugeRef {
    site: &'static Location,
    entry: Option<(&'static GaugeEntry, Option<Box<str>>)>,
}

impl GaugeRef {
    #[inline]
    fn update(&self, op: Op, operand: f64) {
        if let Some((entry, folded)) = &self.entry {
            if switch::enabled() {
                entry.apply(op, operand, self.site, folded.as_deref());
            }
        }
    }

    /// Sets the value.
    #[inline]
    pub fn set(&self, value: f64) {
        self.update(Op::Set, value);
    }

    /// Adds `delta` (to 0 on a gauge never set).
    #[inline]
    pub fn inc(&self, delta: f64) {
        self.update(Op::Inc, delta);
    }

    /// Subtracts `delta` (from 0 on a gauge never set).
    #[inline]
    pub fn dec(&self, delta: f64) {
        self.update(Op::Dec, delta);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static HERE: Location = Location::new("src/lib.rs", 1, 1);

    #[test]
    fn operations_min_max_history_and_logs() {
        let gauge = GaugeEntry::create(7, "queue", false);
        let time = Timebase::now();
        assert!(gauge.row(time).is_none(), "no row before the first update");
        gauge.apply(Op::Inc, 2.0, &HERE, None);
        gauge.apply(Op::Dec, 5.0, &HERE, None);
        gauge.apply(Op::Set, 10.0, &HERE, None);
        let row = gauge.row(time).unwrap();
        assert_eq!((row.current, row.min, row.max, row.updates), (10.0, -3.0, 10.0, 3));
        assert_eq!(row.history, [2.0, -3.0, 10.0]);
        assert_eq!((row.file.as_str(), row.line), ("src/lib.rs", 1));
        for i in 0..100 {
            gauge.apply(Op::Set, f64::from(i), &HERE, Some("real-key"));
        }
        let row = gauge.row(time).unwrap();
        assert_eq!(row.history.len(), HISTORY);
        assert_eq!((row.history[0], row.history[HISTORY - 1]), (36.0, 99.0), "the last 64, oldest first");
        let (total, logs) = gauge.logs(time);
        assert_eq!(total, 103);
        assert_eq!(logs.len(), limits::current().per_entry);
        assert_eq!((logs[0].seq, logs[0].current, logs[0].op.as_deref()), (103, Some(99.0), Some("set")));
        assert_eq!(logs[0].key.as_deref(), Some("real-key"));
    }
}
