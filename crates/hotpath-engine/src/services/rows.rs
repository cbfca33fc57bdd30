//! The rows of one request-like section, keyed at run time (a route, an endpoint, a
//! query, each with the route and function that issued it), and bounded.
//!
//! - Finding a row is lock-free: an open-addressing table of row pointers, probed with
//!   the key's hash and compared by value. Only a new key takes the table's lock (once).
//! - At most `HOTPATH_ENTRIES_LIMIT` rows per table (default 1,000); later keys count in
//!   the table's `<other>` row and the report header says so once. Past the limit,
//!   finding a row stays lock-free.
//! - Rows are never freed; each takes a cell id in the one id space of `recorder`.

use std::ptr;
#[cfg(feature = "axum")]
use std::sync::atomic::AtomicU64;
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use super::hash::Fnv;
use crate::sync::lock;
#[cfg(feature = "axum")]
use crate::sync::Padded;
use crate::timeline::trigger::{self, Reason, Subject};
use crate::timeline::{self, Threshold};
use crate::{diag, memory};

/// No route, no function.
pub(crate) const NONE: u32 = u32::MAX;
use crate::options::{DEFAULT_ENTRIES_LIMIT as DEFAULT_LIMIT, MAX_ENTRIES_LIMIT as MAX_LIMIT};
/// The row name of keys past the limit.
pub(crate) const OVERFLOW: &str = "<other>";

static LIMIT: AtomicUsize = AtomicUsize::new(DEFAULT_LIMIT);
static NEXT_ID: AtomicU32 = AtomicU32::new(0);

/// Whether any row was made (a report needs the clock ratio then).
pub(crate) fn any() -> bool {
    NEXT_ID.load(Ordering::Relaxed) > 0
}

/// Sets the rows per table (`HOTPATH_ENTRIES_LIMIT`), clamped to `1..=MAX_LIMIT`.
pub(crate) fn set_limit(limit: usize) {
    LIMIT.store(limit.clamp(1, MAX_LIMIT), Ordering::Relaxed);
}

/// What identifies a row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Key<'a> {
    /// The normalized route, endpoint or query.
    pub(crate) text: &'a str,
    /// The client's label (HTTP).
    pub(crate) label: Option<&'a str>,
    /// The id of the server row whose request issued it, or [`NONE`].
    pub(crate) route: u32,
    /// The id of the measured function that issued it, or [`NONE`].
    pub(crate) function: u32,
    /// The library (SQL, HTTP) or whether a route matched (server).
    pub(crate) tag: u8,
}

impl Key<'_> {
    pub(crate) fn hash(&self) -> u64 {
        let label = self.label.unwrap_or("");
        let h = Fnv::new().bytes(self.text.as_bytes()).number(label.len() as u64).bytes(label.as_bytes());
        h.number(u64::from(self.route) << 32 | u64::from(self.function)).number(u64::from(self.tag)).finish()
    }
}

/// One row: its key, its cell id, and (server rows) its requests in flight.
pub(crate) struct Row {
    id: u32,
    hash: u64,
    text: Box<str>,
    label: Option<Box<str>>,
    route: u32,
    function: u32,
    tag: u8,
    overflow: bool,
    example: Option<Box<str>>,
    /// Its last executions or requests, in the debug trackers' log store (`logs.rs`).
    log: crate::logs::LogRing,
    /// The duration over which a request of it writes the timeline out.
    threshold: Threshold,
    /// Requests in flight and the most at once; on lines of their own, the one shared
    /// write of a server request.
    #[cfg(feature = "axum")]
    in_flight: Padded<AtomicU64>,
    #[cfg(feature = "axum")]
    in_flight_max: AtomicU64,
}

impl Row {
    fn matches(&self, key: &Key<'_>) -> bool {
        !self.overflow
            && *self.text == *key.text
            && self.label.as_deref() == key.label
            && (self.route, self.function, self.tag) == (key.route, key.function, key.tag)
    }

    /// Its cell id.
    pub(crate) fn id(&self) -> u32 {
        self.id
    }
    pub(crate) fn text(&self) -> &str {
        &self.text
    }
    #[cfg(feature = "services-http")]
    pub(crate) fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }
    #[cfg(any(feature = "services-http", feature = "services-sql"))]
    pub(crate) fn route(&self) -> u32 {
        self.route
    }
    #[cfg(any(feature = "services-http", feature = "services-sql"))]
    pub(crate) fn function(&self) -> u32 {
        self.function
    }
    pub(crate) fn tag(&self) -> u8 {
        self.tag
    }
    /// True for the `<other>` row.
    #[cfg(any(feature = "axum", feature = "services-sql"))]
    pub(crate) fn is_overflow(&self) -> bool {
        self.overflow
    }
    /// A raw sample kept with the row (SQL with `HOTPATH_SQL_RAW_LOGS`).
    #[cfg(feature = "services-sql")]
    pub(crate) fn example(&self) -> Option<&str> {
        self.example.as_deref()
    }

    /// Its log of executions or requests.
    pub(crate) fn log(&self) -> &crate::logs::LogRing {
        &self.log
    }

    /// Its timeline trigger (`HOTPATH_TIMELINE_TRIGGER="GET /users/{id}>50ms"`).
    pub(crate) fn threshold(&self) -> &Threshold {
        &self.threshold
    }

    /// Puts a request, call or query of `ns` that ended now on the timeline, with its
    /// HTTP `status` (0: none), and writes the timeline out when it breached the row's
    /// threshold. One relaxed load while the timeline is off.
    #[inline]
    pub(crate) fn on_timeline(&self, ns: u64, status: u16) {
        if timeline::on() {
            self.timeline_event(ns, status);
        }
    }

    #[cold]
    #[inline(never)]
    fn timeline_event(&self, ns: u64, status: u16) {
        let end = crate::clock::now();
        let (len, _) = crate::clock::ticks_in_ns(ns);
        timeline::slice(timeline::Kind::Request, self.id, end.saturating_sub(len), len, u64::from(status));
        if self.threshold.breached(len) {
            let over = self.threshold.ns() as f64 / 1e6;
            let text = format!("{} took {:.3} ms (over {over:.3} ms)", self.text, ns as f64 / 1e6);
            trigger::breach(Reason::SlowCall, || Subject::Text(text));
        }
    }

    /// A request started: one atomic add (and a max) on the row's own line.
    #[cfg(feature = "axum")]
    #[inline]
    pub(crate) fn enter(&self) {
        let now = self.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
        if now > self.in_flight_max.load(Ordering::Relaxed) {
            self.in_flight_max.fetch_max(now, Ordering::Relaxed);
        }
    }

    /// A request ended (answered or dropped).
    #[cfg(feature = "axum")]
    #[inline]
    pub(crate) fn leave(&self) {
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
    }

    /// Requests in flight now, and the most at once.
    #[cfg(feature = "axum")]
    pub(crate) fn in_flight(&self) -> (u64, u64) {
        (self.in_flight.load(Ordering::Relaxed), self.in_flight_max.load(Ordering::Relaxed))
    }
}

/// The rows of one section.
pub(crate) struct RowTable {
    /// What the rows are, for the overflow warning ("SQL queries").
    what: &'static str,
    /// Open addressing, a power of two at least twice the limit: never full.
    slots: OnceLock<Box<[AtomicPtr<Row>]>>,
    /// Rows in creation order (the overflow row included), written under this lock.
    rows: Mutex<Vec<&'static Row>>,
    /// Rows in `slots`, read without the lock to go straight to `<other>` when full.
    keyed: AtomicUsize,
    overflow: OnceLock<&'static Row>,
}

impl RowTable {
    pub(crate) const fn new(what: &'static str) -> Self {
        Self {
            what,
            slots: OnceLock::new(),
            rows: Mutex::new(Vec::new()),
            keyed: AtomicUsize::new(0),
            overflow: OnceLock::new(),
        }
    }

    /// The row of `key`, made on first use; `example` gives a new row its raw sample.
    #[inline]
    pub(crate) fn get(&'static self, key: &Key<'_>, example: impl FnOnce() -> Option<Box<str>>) -> &'static Row {
        let hash = key.hash();
        if let Some(row) = self.find(hash, key) {
            return row;
        }
        if self.keyed.load(Ordering::Relaxed) >= self.limit() {
            if let Some(row) = self.overflow.get() {
                return row;
            }
        }
        self.insert(hash, key, example)
    }

    /// Every row, in creation order.
    pub(crate) fn all(&self) -> Vec<&'static Row> {
        lock(&self.rows).clone()
    }

    /// The configured limit, and never more than half the slots (once they exist).
    fn limit(&self) -> usize {
        let limit = LIMIT.load(Ordering::Relaxed);
        self.slots.get().map_or(limit, |s| limit.min(s.len() / 2))
    }

    fn find(&self, hash: u64, key: &Key<'_>) -> Option<&'static Row> {
        let slots = self.slots.get()?;
        let mask = slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let p = slots[i].load(Ordering::Acquire);
            if p.is_null() {
                return None;
            }
            // SAFETY: non-null slots hold rows leaked in `make` and published with
            // Release after they were complete; rows are never freed.
            let row: &'static Row = unsafe { &*p };
            if row.hash == hash && row.matches(key) {
                return Some(row);
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    #[inline(never)]
    fn insert(&'static self, hash: u64, key: &Key<'_>, example: impl FnOnce() -> Option<Box<str>>) -> &'static Row {
        let (row, first_overflow) = memory::untracked(|| {
            let mut rows = lock(&self.rows);
            if let Some(row) = self.find(hash, key) {
                return (row, false);
            }
            let slots = self.slots.get_or_init(|| {
                let n = (LIMIT.load(Ordering::Relaxed) * 2).next_power_of_two();
                memory::allocated(n * std::mem::size_of::<AtomicPtr<Row>>());
                (0..n).map(|_| AtomicPtr::new(ptr::null_mut())).collect()
            });
            if self.keyed.load(Ordering::Relaxed) >= self.limit() {
                let mut first = false;
                let row = *self.overflow.get_or_init(|| {
                    first = true;
                    let overflow = Key { text: OVERFLOW, label: None, route: NONE, function: NONE, tag: key.tag };
                    let row = make(0, &overflow, true, None);
                    rows.push(row);
                    row
                });
                return (row, first);
            }
            let row = make(hash, key, false, example());
            let mask = slots.len() - 1;
            let mut i = hash as usize & mask;
            while !slots[i].load(Ordering::Relaxed).is_null() {
                i = (i + 1) & mask;
            }
            slots[i].store(ptr::from_ref(row).cast_mut(), Ordering::Release);
            self.keyed.store(self.keyed.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
            rows.push(row);
            (row, false)
        });
        if first_overflow {
            memory::untracked(|| {
                diag::warn_in_report(format!(
                    "more than {} distinct {} (HOTPATH_ENTRIES_LIMIT): further ones are counted in the `{OVERFLOW}` row",
                    self.limit(),
                    self.what
                ));
            });
        }
        row
    }
}

fn make(hash: u64, key: &Key<'_>, overflow: bool, example: Option<Box<str>>) -> &'static Row {
    let row = Row {
        id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        hash,
        text: key.text.into(),
        label: key.label.map(Into::into),
        route: key.route,
        function: key.function,
        tag: key.tag,
        overflow,
        example,
        log: crate::logs::LogRing::new(),
        threshold: Threshold::new(0),
        #[cfg(feature = "axum")]
        in_flight: Padded(AtomicU64::new(0)),
        #[cfg(feature = "axum")]
        in_flight_max: AtomicU64::new(0),
    };
    row.threshold.apply(|| row.text.to_string());
    let heap = key.text.len() + key.label.map_or(0, str::len) + row.example.as_ref().map_or(0, |e| e.len());
    memory::allocated(std::mem::size_of::<Row>() + heap);
    Box::leak(Box::new(row))
}

#[cfg(all(test, feature = "axum", feature = "services-http", feature = "services-sql"))]
mod tests {
    use super::*;

    static TABLE: RowTable = RowTable::new("test keys");

    fn key(text: &str) -> Key<'_> {
        Key { text, label: None, route: NONE, function: NONE, tag: 0 }
    }

    #[test]
    fn rows_by_key_then_other_past_the_limit() {
        let a = TABLE.get(&key("GET /a"), || None);
        assert!(std::ptr::eq(a, TABLE.get(&key("GET /a"), || None)));
        let routed = TABLE.get(&Key { route: 3, ..key("GET /a") }, || Some("raw".into()));
        assert_ne!(a.id(), routed.id());
        assert_eq!((routed.route(), routed.example()), (3, Some("raw")));
        let labelled = TABLE.get(&Key { label: Some("gh"), ..key("GET /a") }, || None);
        assert_eq!(labelled.label(), Some("gh"));
        let limit = TABLE.limit();
        let names: Vec<&str> = (0..limit + 5).map(|i| TABLE.get(&key(&format!("GET /k{i}")), || None).text()).collect();
        assert!(names[limit..].iter().all(|n| *n == OVERFLOW), "{:?}", &names[limit - 3..]);
        assert!(TABLE.get(&key("GET /new"), || None).is_overflow());
        assert!(std::ptr::eq(a, TABLE.get(&key("GET /a"), || None)), "rows made before the limit keep theirs");
        assert_eq!(TABLE.all().iter().filter(|r| r.is_overflow()).count(), 1);
        let warnings = diag::report_warnings();
        assert_eq!(warnings.iter().filter(|w| w.contains("distinct test keys")).count(), 1, "{warnings:?}");
    }

    #[test]
    fn in_flight_and_max() {
        static FLIGHT: RowTable = RowTable::new("flights");
        let row = FLIGHT.get(&key("GET /f"), || None);
        row.enter();
        row.enter();
        row.leave();
        assert_eq!(row.in_flight(), (1, 2));
    }
}
