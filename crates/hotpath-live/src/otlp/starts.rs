//! Start times of cumulative series. OTLP marks a reset of a cumulative series with
//! a new start time, where Prometheus's `/metrics` adds the old counts back (`carry`):
//! a series starts when the session it was first pushed in started, and starts again
//! when a push finds one of its values below the last pushed one (a new session zeroed
//! it), at that session's start, which is later than every point pushed before.
//! Counts a session keeps from the one before (channel messages, lock counts, thread
//! CPU) go on under their first start time. A zeroed series that overtook its old
//! value before its first push looks like one that went on, as with `/metrics`.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};

use hotpath_model::{Sample, Series};

/// A series by a hash of its family name and labels.
type Key = u64;

#[derive(Default)]
pub(crate) struct Starts {
    hasher: RandomState,
    /// Per series: its start, and its last pushed value (a histogram's count) and sum.
    series: HashMap<Key, (u64, f64, f64)>,
}

impl Starts {
    /// The start time of `series` of family `name`, pushed now from a session that
    /// started at `session_start_ns`.
    pub(crate) fn start(&mut self, name: &str, series: &Series, session_start_ns: u64) -> u64 {
        let key = self.hasher.hash_one((name, &series.labels));
        let (value, sum) = match &series.sample {
            Sample::Value(v) => (*v, 0.0),
            Sample::Histogram(b) => (b.count as f64, b.sum_ns as f64),
        };
        let entry = self.series.entry(key).or_insert((session_start_ns, value, sum));
        if value < entry.1 || sum < entry.2 {
            // Zeroed within the session that started it (not seen so far): the start
            // must still move on.
            entry.0 = if session_start_ns > entry.0 { session_start_ns } else { entry.0 + 1 };
        }
        (entry.1, entry.2) = (value, sum);
        entry.0
    }
}

#[cfg(test)]
mod tests {
    use hotpath_model::Family;

    use super::*;

    fn start(starts: &mut Starts, value: f64, session_start: u64) -> u64 {
        let mut f = Family::new("x_total", hotpath_model::MetricKind::Counter, "x");
        f.value(&[("function", "f")], value);
        starts.start(f.name, &f.series[0], session_start)
    }

    #[test]
    fn a_series_starts_again_when_a_session_zeroes_it() {
        let mut s = Starts::default();
        assert_eq!(start(&mut s, 5.0, 100), 100);
        assert_eq!(start(&mut s, 7.0, 100), 100);
        // Session 2 (started at 200) zeroed it.
        assert_eq!(start(&mut s, 1.0, 200), 200);
        assert_eq!(start(&mut s, 3.0, 200), 200);
        // Session 3 kept its count (a channel's): the start stays.
        assert_eq!(start(&mut s, 4.0, 300), 200);
    }
}
