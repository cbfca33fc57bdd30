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
//! A histogram's native buckets are carried the same way, bucket by bucket, so both
//! exposition formats go on from the same counts.

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
    /// The same labels unescaped, for the protobuf format.
    pub(crate) pairs: Vec<(String, String)>,
    carry: Mutex<Carry>,
}

#[derive(Default)]
struct Carry {
    hasher: RandomState,
    session: u64,
    /// Values last served in the current session, per series.
    last: HashMap<Key, Counts>,
    /// The last values of the previous session, of series the current one has not
    /// served yet (each is decided once: zeroed or going on).
    undecided: HashMap<Key, Counts>,
    /// What is added to each series: the last values before each zeroing.
    base: HashMap<Key, Counts>,
}

/// A series' counts: a value, or a histogram's cumulative buckets then its count, sum
/// (ns) and zero count, with its native buckets apart (sparse, by index).
#[derive(Default)]
struct Counts {
    values: Vec<f64>,
    exponential: Vec<(i32, u64)>,
}

impl Exposition {
    /// The process labels, in order (their names are checked by the session's config).
    pub(crate) fn new(labels: &[(String, String)]) -> Self {
        let escaped = labels.iter().map(|(n, v)| format!("{n}=\"{}\"", escape(v))).collect();
        Self { labels: escaped, pairs: labels.to_vec(), carry: Mutex::default() }
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
                let raw = counts(&series.sample);
                if let Some(before) = carry.undecided.remove(&key) {
                    // Raw values, so a base added earlier shows as `before` minus it.
                    if went_down(&raw, &before) {
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

fn counts(sample: &Sample) -> Counts {
    match sample {
        Sample::Value(v) => Counts { values: vec![*v], exponential: Vec::new() },
        Sample::Histogram(b) => Counts {
            values: b.cumulative.iter().chain([&b.count, &b.sum_ns, &b.zero_count]).map(|&n| n as f64).collect(),
            exponential: b.exponential.clone(),
        },
    }
}

/// Whether any count of `before` is above its count in `now` (a native bucket gone
/// counts as 0).
fn went_down(now: &Counts, before: &Counts) -> bool {
    let native = || {
        before.exponential.iter().any(|(i, then)| {
            let at = now.exponential.binary_search_by_key(i, |(j, _)| *j);
            at.map_or(0, |k| now.exponential[k].1) < *then
        })
    };
    now.values.iter().zip(&before.values).any(|(now, then)| now < then) || native()
}

fn shift(sample: &mut Sample, base: &Counts) {
    let at = |k: usize| base.values.get(k).copied().unwrap_or(0.0);
    match sample {
        Sample::Value(v) => *v += at(0),
        Sample::Histogram(b) => {
            let n = b.cumulative.len();
            for (c, add) in b.cumulative.iter_mut().zip(&base.values) {
                *c += *add as u64;
            }
            b.count += at(n) as u64;
            b.sum_ns += at(n + 1) as u64;
            b.zero_count += at(n + 2) as u64;
            b.exponential = merged(&b.exponential, &base.exponential);
        }
    }
}

fn add(into: &mut Counts, counts: &Counts) {
    if into.values.len() < counts.values.len() {
        into.values.resize(counts.values.len(), 0.0);
    }
    for (a, v) in into.values.iter_mut().zip(&counts.values) {
        *a += v;
    }
    into.exponential = merged(&into.exponential, &counts.exponential);
}

/// Two sparse bucket lists (ascending by index) added bucket by bucket.
fn merged(a: &[(i32, u64)], b: &[(i32, u64)]) -> Vec<(i32, u64)> {
    let mut out: Vec<(i32, u64)> = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let from_a = j == b.len() || (i < a.len() && a[i].0 <= b[j].0);
        let (index, count) = if from_a {
            i += 1;
            a[i - 1]
        } else {
            j += 1;
            b[j - 1]
        };
        match out.last_mut() {
            Some(last) if last.0 == index => last.1 += count,
            _ => out.push((index, count)),
        }
    }
    out
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
        let native = vec![(-40, buckets), (7, 1)];
        let b = Buckets::new(vec![buckets; 9], buckets, buckets * 10).with_exponential(buckets, native);
        hist.histogram(&[("function", "f")], Some(&b));
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
        assert_eq!((b.cumulative[0], b.count, b.sum_ns, b.zero_count), (5, 5, 50, 5));
        // Native buckets go on too, bucket by bucket.
        assert_eq!(b.exponential, [(-40, 5), (7, 2)]);
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
    fn a_native_bucket_that_went_down_is_a_zeroing() {
        let e = Exposition::default();
        let mut f = vec![Family::new("h_seconds", MetricKind::Histogram, "h")];
        let one = Buckets::new(vec![2; 9], 2, 20).with_exponential(0, vec![(3, 1), (9, 1)]);
        f[0].histogram(&[], Some(&one));
        e.carry(1, &mut f);
        // Same totals, but bucket 9 emptied: zeroed and counted again from zero.
        let mut g = vec![Family::new("h_seconds", MetricKind::Histogram, "h")];
        g[0].histogram(&[], Some(&Buckets::new(vec![2; 9], 2, 20).with_exponential(0, vec![(3, 2)])));
        e.carry(2, &mut g);
        let Sample::Histogram(b) = &g[0].series[0].sample else { unreachable!() };
        assert_eq!((b.count, b.exponential.as_slice()), (4, [(3, 3), (9, 1)].as_slice()));
    }

    #[test]
    fn sparse_buckets_add_by_index() {
        assert_eq!(merged(&[(1, 1), (4, 2)], &[(0, 5), (4, 1), (6, 1)]), [(0, 5), (1, 1), (4, 3), (6, 1)]);
        assert_eq!(merged(&[], &[(2, 1)]), [(2, 1)]);
        assert!(merged(&[], &[]).is_empty());
    }

    #[test]
    fn labels_are_escaped_once() {
        let e = Exposition::new(&[("service".into(), "a\"b\\".into())]);
        assert_eq!(e.labels, ["service=\"a\\\"b\\\\\""]);
        assert_eq!(e.pairs, [("service".to_string(), "a\"b\\".to_string())]);
    }
}
