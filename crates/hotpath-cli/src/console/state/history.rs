//! Rates over time: for every row of every section, the per-second change of each
//! integer field (nested ones included, by dotted path) between two polls, keeping the last [`POINTS`] values. Rows that
//! disappear are forgotten, so memory follows what the server shows.

use std::collections::{HashMap, VecDeque};
use std::time::Instant;

use serde_json::Value;

use super::generic::{flatten, row_lists, row_name};

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
                for row in value[list.as_str()].as_array().into_iter().flatten() {
                    let Some(name) = row_name(row) else { continue };
                    for (field, v) in flatten(row) {
                        let Some(v) = v.as_u64() else { continue };
                        let key = (section.clone(), name.clone(), field);
                        let mut series =
                            self.series.remove(&key).unwrap_or(Series { value: v, rates: VecDeque::new() });
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
                        seen.insert(key, series);
                    }
                }
            }
        }
        self.series = seen;
        self.last = Some(now);
    }

    /// The rates of `field` of row `name` in `section`, oldest first.
    pub(crate) fn rates(&self, section: &str, name: &str, field: &str) -> Option<&VecDeque<f64>> {
        self.series.get(&(section.to_string(), name.to_string(), field.to_string())).map(|s| &s.rates)
    }

    /// The latest rate, once two polls have been seen.
    pub(crate) fn rate(&self, section: &str, name: &str, field: &str) -> Option<f64> {
        self.rates(section, name, field).and_then(|r| r.back().copied())
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
}
