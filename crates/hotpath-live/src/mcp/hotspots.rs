//! `hotspots`: a short ranked summary across every section, sized for an agent's
//! context: the few things most worth looking at, each with the number behind it.
//! Read from the typed report, so a renamed field is a compile error, not a zero.

use hotpath_model::Report;
use serde_json::{json, Value};

/// One candidate: its share of the wall time or of its section's total, and the item.
struct Item {
    share: f64,
    value: Value,
}

fn item(share: f64, section: &str, name: &str, metric: &str, value: u64, why: &str) -> Item {
    Item { share, value: json!({ "section": section, "name": name, "metric": metric, "value": value, "why": why }) }
}

/// Ranked by share, highest first.
pub(super) fn hotspots(report: &Report, limit: usize) -> Value {
    let wall = report.meta.wall_ns.max(1) as f64;
    let mut items: Vec<Item> = Vec::new();
    if let Some(s) = &report.functions_timing {
        for r in s.rows.iter().take(limit) {
            let why = "exclusive time in this function";
            items.push(item(r.self_ns as f64 / wall, "functions_timing", &r.name, "self_ns", r.self_ns, why));
        }
    }
    if let Some(s) = &report.functions_alloc {
        let whole = s.process_alloc_bytes.max(1) as f64;
        for r in s.rows.iter().take(limit) {
            let why = "share of all bytes allocated";
            items.push(item(
                r.bytes_total as f64 / whole,
                "functions_alloc",
                &r.name,
                "bytes_total",
                r.bytes_total,
                why,
            ));
        }
    }
    if let Some(s) = &report.functions_cpu {
        let whole = s.samples.max(1) as f64;
        for r in s.rows.iter().take(limit) {
            let why = "share of CPU samples, innermost";
            items.push(item(
                r.self_samples as f64 / whole,
                "functions_cpu",
                &r.name,
                "self_samples",
                r.self_samples,
                why,
            ));
        }
    }
    for r in report.channels.iter().flat_map(|s| &s.rows).filter(|r| r.slow_consumer) {
        let why = "slow consumer: the queue kept growing";
        items.push(item(1.0, "channels", &r.name, "max_queue_len", r.max_queue_len, why));
    }
    for r in report.mutexes.iter().flat_map(|s| &s.rows) {
        let wait = r.lock.wait.total_ns;
        items.push(item(
            wait as f64 / wall,
            "mutexes",
            &r.name,
            "lock.wait.total_ns",
            wait,
            "time threads waited for this lock",
        ));
    }
    for r in report.rw_locks.iter().flat_map(|s| &s.rows) {
        let wait = r.reads.wait.total_ns + r.writes.wait.total_ns;
        items.push(item(wait as f64 / wall, "rw_locks", &r.name, "wait_ns", wait, "time threads waited for this lock"));
    }
    for r in report.io.iter().flat_map(|s| &s.rows) {
        let ns = r.read.timed_ns + r.write.timed_ns;
        items.push(item(ns as f64 / wall, "io", &r.name, "timed_ns", ns, "time inside reads and writes"));
    }
    for runtime in report.tokio_runtime.iter().flat_map(|s| &s.runtimes) {
        for flag in &runtime.flags {
            let value =
                json!({"section": "tokio_runtime", "name": runtime.name, "metric": flag.kind, "why": flag.message});
            items.push(Item { share: 1.0, value });
        }
    }
    items.sort_by(|a, b| b.share.total_cmp(&a.share));
    let ranked: Vec<Value> = items
        .into_iter()
        .filter(|i| i.share > 0.0)
        .take(limit)
        .map(|Item { share, mut value }| {
            value["share"] = json!((share * 1000.0).round() / 1000.0);
            value
        })
        .collect();
    json!({ "wall_ns": wall as u64, "hotspots": ranked })
}

/// The ranked list as a few lines of text.
pub(super) fn summary(result: &Value) -> String {
    let items = result["hotspots"].as_array().cloned().unwrap_or_default();
    if items.is_empty() {
        return "No hotspots: nothing measured yet.".into();
    }
    let lines: Vec<String> = items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let share = v["share"].as_f64().unwrap_or(0.0) * 100.0;
            format!(
                "{}. [{}] {} — {} = {} ({share:.1}%): {}",
                i + 1,
                v["section"].as_str().unwrap_or(""),
                v["name"].as_str().unwrap_or("?"),
                v["metric"].as_str().unwrap_or(""),
                v["value"],
                v["why"].as_str().unwrap_or("")
            )
        })
        .collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hotpath_model::{ChannelRow, Channels, FunctionTiming, FunctionsTiming, MutexRow, Mutexes};

    #[test]
    fn ranks_across_sections_by_share() {
        let mut report = Report::default();
        report.meta.wall_ns = 1000;
        let mut timing = FunctionsTiming::default();
        for (name, self_ns) in [("a", 100), ("b", 600)] {
            let mut row = FunctionTiming::default();
            row.name = name.into();
            row.self_ns = self_ns;
            timing.rows.push(row);
        }
        report.functions_timing = Some(timing);
        let mut channel = ChannelRow::default();
        channel.name = "jobs".into();
        channel.slow_consumer = true;
        channel.max_queue_len = 900;
        let mut channels = Channels::default();
        channels.rows = vec![channel];
        report.channels = Some(channels);
        let mut mutex = MutexRow::default();
        mutex.name = "state".into();
        mutex.lock.wait.total_ns = 300;
        let mut mutexes = Mutexes::default();
        mutexes.rows = vec![mutex];
        report.mutexes = Some(mutexes);
        let result = hotspots(&report, 3);
        let names: Vec<&str> =
            result["hotspots"].as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["jobs", "b", "state"], "the mutex wait counts (it read a missing field before)");
        assert!(summary(&result).starts_with("1. [channels] jobs"));
    }
}
