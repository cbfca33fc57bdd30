//! What `/metrics` keeps across snapshots: the process labels, and the counts of
//! finished sessions. A process may run several sessions (a guard per test, a guard
//! per job) while one live server serves them all; a Prometheus counter must not go
//! down while the process lives. A new session zeroes most counts (functions,
//! allocations, I/O, instrument durations) but not those kept in wrapped values
//! (channel messages, lock and stream counts) or read from the system (thread CPU).
//! So at a session change each counter and histogram series is looked at once, when
//! the new session first serves it: if any of its values went down, it was zeroed,
//! and the last values served before are added to every later value of that series;
//! otherwise it goes on by itself. What a session counted after its last scrape is
//! not carried, and a zeroed series that overtook its old value before its first
//! scrape looks like one that went on: counters stay monotonic and may miss those.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::Mutex;

use hotpath_model::{Families, MetricKind, Sample};

use super::escape::escape;
use crate::lock;

/// Families whose counts belong to the server, not to a session: never carried.
const SERVER_LIFETIME: &[&str] = &["hotpath_http_responses_total"];

/// A series by a hash of its family name and labels: a large exposition (thousands
/// of `gauge!` keys with long names) keeps 8 bytes per series, not a copy of its labels.
type Key = u64;

/// The process labels and the carried counts; one per server.
#[derive(Default)]
pub(crate) struct Exposition {
    /// `name="value"` strings, escaped once, put before each series' own labels.
    pub(crate) labels: Vec<String>,
    carry: Mutex<Carry>,
}

#[derive(Default)]
struct Carry {
    hasher: RandomState,
    session: u64,
    /// Values last served in the current session, per series: a value, or a
    /// histogram's cumulative buckets then its count and sum (ns).
    last: HashMap<Key, Vec<f64>>,
    /// The last values of the previous session, of series the current one has not
    /// served yet (each is decided once: zeroed or going on).
    undecided: HashMap<Key, Vec<f64>>,
    /// What is added to each series: the last values before each zeroing.
    base: HashMap<Key, Vec<f64>>,
}

impl Exposition {
    /// The process labels, in order (their names are checked by the session's config).
    pub(crate) fn new(labels: &[(String, String)]) -> Self {
        let labels = labels.iter().map(|(n, v)| format!("{n}=\"{}\"", escape(v))).collect();
        Self { labels, carry: Mutex::default() }
    }

    /// Adds the carried counts of earlier sessions to the counters and histograms of
    /// `families`, which come from session `session`.
    pub(crate) fn carry(&self, session: u64, families: &mut Families) {
        let mut carry = lock(&self.carry);
        if session < carry.session {
            // An older snapshot rendered late: its session's counts are in the base already.
            return;
        }
        if session > carry.session {
            carry.undecided = std::mem::take(&mut carry.last);
            carry.session = session;
        }
        let counted = families.iter_mut().filter(|f| f.kind != MetricKind::Gauge && !SERVER_LIFETIME.contains(&f.name));
        for family in counted {
            for series in &mut family.series {
                let key = carry.hasher.hash_one((family.name, &series.labels));
                let raw = values(&series.sample);
                if let Some(before) = carry.undecided.remove(&key) {
                    // Raw values, so a base added earlier shows as `before` minus it.
                    if raw.iter().zip(&before).any(|(now, then)| now < then) {
                        add(carry.base.entry(key).or_default(), &before);
                    }
                }
                if let Some(base) = carry.base.get(&key) {
                    shift(&mut series.sample, base);
                }
                carry.last.insert(key, raw);
            }
        }
    }
}

fn values(sample: &Sample) -> Vec<f64> {
    match sample {
        Sample::Value(v) => vec![*v],
        Sample::Histogram(b) => b.cumulative.iter().chain([&b.count, &b.sum_ns]).map(|&n| n as f64).collect(),
    }
}

fn shift(sample: &mut Sample, base: &[f64]) {
    match sample {
        Sample::Value(v) => *v += base.first().copied().unwrap_or(0.0),
        Sample::Histogram(b) => {
            let n = b.cumulative.len();
            for (c, add) in b.cumulative.iter_mut().zip(base) {
                *c += *add as u64;
            }
            b.count += base.get(n).copied().unwrap_or(0.0) as u64;
            b.sum_ns += base.get(n + 1).copied().unwrap_or(0.0) as u64;
        }
    }
}

fn add(into: &mut Vec<f64>, values: &[f64]) {
    if into.len() < values.len() {
        into.resize(values.len(), 0.0);
    }
    for (a, v) in into.iter_mut().zip(values) {
        *a += v;
    }
}

#[cfg(test)]
mod tests {
    use hotpath_model::{Buckets, Family};

    use super::*;

    fn families(calls: f64, active: f64, buckets: u64) -> Families {
        let mut time = Family::new("t_total", MetricKind::Counter, "t");
        time.value(&[("function", "f")], calls);
        let mut now = Family::new("g", MetricKind::Gauge, "g");
        now.value(&[("function", "f")], active);
        let mut hist = Family::new("h_seconds", MetricKind::Histogram, "h");
        hist.histogram(&[("function", "f")], Some(&Buckets::new(vec![buckets; 9], buckets, buckets * 10)));
        vec![time, now, hist]
    }

    fn served(e: &Exposition, session: u64, calls: f64, active: f64, buckets: u64) -> (f64, f64, Buckets) {
        let mut f = families(calls, active, buckets);
        e.carry(session, &mut f);
        let value = |s: &Sample| match s {
            Sample::Value(v) => *v,
            Sample::Histogram(_) => unreachable!(),
        };
        let Sample::Histogram(b) = f[2].series[0].sample.clone() else { unreachable!() };
        (value(&f[0].series[0].sample), value(&f[1].series[0].sample), b)
    }

    #[test]
    fn zeroed_counters_continue_across_sessions_and_gauges_do_not() {
        let e = Exposition::default();
        assert_eq!(served(&e, 1, 5.0, 2.0, 3).0, 5.0);
        assert_eq!(served(&e, 1, 7.0, 1.0, 4).0, 7.0);
        // Session 2 counts from zero; the served counters go on from 7 and 4.
        let (calls, active, b) = served(&e, 2, 1.0, 3.0, 1);
        assert_eq!((calls, active), (8.0, 3.0));
        assert_eq!((b.cumulative[0], b.count, b.sum_ns), (5, 5, 50));
        assert_eq!(served(&e, 2, 2.0, 0.0, 2).0, 9.0);
        // A late snapshot of session 1 changes nothing carried.
        served(&e, 1, 100.0, 0.0, 100);
        let (calls, _, b) = served(&e, 3, 0.0, 0.0, 0);
        assert_eq!((calls, b.count), (9.0, 6));
    }

    #[test]
    fn counters_that_go_on_by_themselves_are_not_added_twice() {
        let e = Exposition::default();
        served(&e, 1, 10.0, 0.0, 10);
        // A channel's messages are counted by the channel: session 2 starts at 12.
        let (calls, _, b) = served(&e, 2, 12.0, 0.0, 12);
        assert_eq!((calls, b.count), (12.0, 12));
        assert_eq!(served(&e, 2, 15.0, 0.0, 15).0, 15.0);
    }

    #[test]
    fn labels_are_escaped_once() {
        let e = Exposition::new(&[("service".into(), "a\"b\\".into())]);
        assert_eq!(e.labels, ["service=\"a\\\"b\\\\\""]);
    }
}
