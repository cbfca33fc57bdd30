//! Rates over time: for every row of every section, the per-second change of each
//! integer field (nested ones included, by dotted path) between two polls, keeping
//! the last [`POINTS`] values. Rows are told apart by their identity
//! (`fields::row_keys`: a thread's tid, not its name, which threads share), and
//! lists inside a row (a runtime's workers) get rates too, under
//! `{row}/{list}/{item}`. Rows that disappear are forgotten, so memory follows what
//! the server shows.

use std::collections::{HashMap, VecDeque};
use std::time::Instant;

use serde_json::Value;

use super::fields::{flatten, row_keys, row_lists};

/// Rate points kept per series (two minutes at the default refresh).
pub(crate) const POINTS: usize = 120;

#[derive(Default)]
pub(crate) struct History {
    series: HashMap<(String, String, String), Series>,
    last: Option<Instant>,
}

struct Series {
    value: u64,
    rates: VecDeque<f64>,
}

/// The key of item `item` of list `list` in the row keyed `row`.
pub(crate) fn nested_key(row: &str, list: &str, item: &str) -> String {
    format!("{row}/{list}/{item}")
}

impl History {
    /// Forgets everything (the server restarted).
    pub(crate) fn clear(&mut self) {
        self.series.clear();
        self.last = None;
    }

    /// Adds one poll of the report taken at `now`.
    pub(crate) fn record(&mut self, report: &Value, now: Instant) {
        let seconds = self.last.map(|t| now.duration_since(t).as_secs_f64()).filter(|s| *s > 0.0);
        let mut seen = HashMap::with_capacity(self.series.len());
        let sections = report.as_object().into_iter().flatten().filter(|(k, _)| *k != "meta" && *k != "schema_version");
        for (section, value) in sections {
            for list in row_lists(value) {
                let rows = value[list.as_str()].as_array().map_or(&[][..], Vec::as_slice);
                for (row, key) in rows.iter().zip(row_keys(rows)) {
                    let Some(key) = key else { continue };
                    self.row(&mut seen, section, &key, row, seconds);
                    // Lists inside the row (a runtime's workers): each item by its own identity.
                    for inner in row_lists(row) {
                        let items = row[inner.as_str()].as_array().map_or(&[][..], Vec::as_slice);
                        for (item, item_key) in items.iter().zip(row_keys(items)) {
                            let Some(item_key) = item_key else { continue };
                            self.row(&mut seen, section, &nested_key(&key, &inner, &item_key), item, seconds);
                        }
                    }
                }
            }
        }
        self.series = seen;
        self.last = Some(now);
    }

    fn row(
        &mut self,
        seen: &mut HashMap<(String, String, String), Series>,
        section: &str,
        key: &str,
        row: &Value,
        seconds: Option<f64>,
    ) {
        for field in flatten(row) {
            let Some(v) = field.value.as_u64() else { continue };
            let id = (section.to_string(), key.to_string(), field.path);
            let mut series = self.series.remove(&id).unwrap_or(Series { value: v, rates: VecDeque::new() });
            match seconds {
                // A counter that went down was reset: start over.
                Some(_) if v < series.value => series.rates.clear(),
                Some(s) => {
                    if series.rates.len() == POINTS {
                        series.rates.pop_front();
                    }
                    series.rates.push_back((v - series.value) as f64 / s);
                }
                None => {}
            }
            series.value = v;
            seen.insert(id, series);
        }
    }

    /// The rates of `field` of the row keyed `key` in `section`, oldest first.
    pub(crate) fn rates(&self, section: &str, key: &str, field: &str) -> Option<&VecDeque<f64>> {
        self.series.get(&(section.to_string(), key.to_string(), field.to_string())).map(|s| &s.rates)
    }

    /// The latest rate, once two polls have been seen.
    pub(crate) fn rate(&self, section: &str, key: &str, field: &str) -> Option<f64> {
        self.rates(section, key, field).and_then(|r| r.back().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::Duration;

    fn report(calls: u64) -> Value {
        json!({"meta": {"pid": 1}, "functions_timing": {"rows": [{"name": "f", "calls": calls, "total_ns": calls * 10}]}})
    }

    #[test]
    fn rates_per_second_and_resets() {
        let mut h = History::default();
        let t0 = Instant::now();
        h.record(&report(100), t0);
        assert_eq!(h.rate("functions_timing", "f", "calls"), None);
        h.record(&report(300), t0 + Duration::from_secs(2));
        assert_eq!(h.rate("functions_timing", "f", "calls"), Some(100.0));
        assert_eq!(h.rate("functions_timing", "f", "total_ns"), Some(1000.0));
        h.record(&report(50), t0 + Duration::from_secs(3));
        assert_eq!(h.rates("functions_timing", "f", "calls").unwrap().len(), 0, "went down: reset");
        for i in 0..(POINTS as u64 + 10) {
            h.record(&report(50 + i), t0 + Duration::from_secs(4 + i));
        }
        assert_eq!(h.rates("functions_timing", "f", "calls").unwrap().len(), POINTS);
        h.record(&json!({"meta": {}}), t0 + Duration::from_secs(1000));
        assert!(h.rates("functions_timing", "f", "calls").is_none(), "rows that vanish are forgotten");
    }

    #[test]
    fn threads_of_one_name_keep_their_own_rates() {
        let threads = |busy: u64, idle: u64| {
            json!({"threads": {"rows": [
                {"name": "tokio-runtime-worker", "tid": 11, "cpu_user_ns": busy},
                {"name": "tokio-runtime-worker", "tid": 12, "cpu_user_ns": idle}]}})
        };
        let mut h = History::default();
        let t0 = Instant::now();
        h.record(&threads(0, 0), t0);
        h.record(&threads(800_000_000, 80_000_000), t0 + Duration::from_secs(1));
        assert_eq!(h.rate("threads", "tid 11", "cpu_user_ns"), Some(800_000_000.0));
        assert_eq!(h.rate("threads", "tid 12", "cpu_user_ns"), Some(80_000_000.0));
    }

    #[test]
    fn lists_inside_rows_get_rates_per_item() {
        let runtime = |polls: u64| {
            json!({"tokio_runtime": {"runtimes": [{"name": "api", "file": "a.rs", "line": 1,
                "workers": [{"index": 0, "polls": polls}, {"index": 1, "polls": 2 * polls}]}]}})
        };
        let mut h = History::default();
        let t0 = Instant::now();
        h.record(&runtime(10), t0);
        h.record(&runtime(20), t0 + Duration::from_secs(1));
        let worker = |i: u32| nested_key("api @ a.rs:1", "workers", &format!("index {i}"));
        assert_eq!(h.rate("tokio_runtime", &worker(0), "polls"), Some(10.0));
        assert_eq!(h.rate("tokio_runtime", &worker(1), "polls"), Some(20.0));
    }
}
