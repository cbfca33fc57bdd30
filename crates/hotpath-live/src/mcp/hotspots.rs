//! `hotspots`: a short ranked summary across every section, sized for an agent's
//! context: the few things most worth looking at, each with the number behind it.

use serde_json::{json, Map, Value};

use super::tools::number_at;

/// Candidate items: `(section, name, metric, value, share of the wall time or of
/// the section's total, why)`. Ranked by share, highest first.
pub(super) fn hotspots(report: &Map<String, Value>, limit: usize) -> Value {
    let wall = report.get("meta").and_then(|m| number_at(m, "wall_ns")).unwrap_or(0.0).max(1.0);
    let mut items: Vec<(f64, Value)> = Vec::new();
    let mut push = |share: f64, item: Value| items.push((share, item));
    let rows =
        |key: &str| report.get(key).and_then(|s| s.get("rows")).and_then(Value::as_array).cloned().unwrap_or_default();

    for r in rows("functions_timing").iter().take(limit) {
        let self_ns = number_at(r, "self_ns").unwrap_or(0.0);
        push(self_ns / wall, item("functions_timing", r, "self_ns", self_ns, "exclusive time in this function"));
    }
    let alloc = report.get("functions_alloc");
    let process_bytes = alloc.and_then(|a| number_at(a, "process_alloc_bytes")).unwrap_or(0.0).max(1.0);
    for r in rows("functions_alloc").iter().take(limit) {
        let bytes = number_at(r, "bytes_total").unwrap_or(0.0);
        push(bytes / process_bytes, item("functions_alloc", r, "bytes_total", bytes, "share of all bytes allocated"));
    }
    let samples = report.get("functions_cpu").and_then(|c| number_at(c, "samples")).unwrap_or(0.0).max(1.0);
    for r in rows("functions_cpu").iter().take(limit) {
        let own = number_at(r, "self_samples").unwrap_or(0.0);
        push(own / samples, item("functions_cpu", r, "self_samples", own, "share of CPU samples, innermost"));
    }
    for r in rows("channels") {
        if r.get("slow_consumer").and_then(Value::as_bool) == Some(true) {
            let queue = number_at(&r, "max_queue_len").unwrap_or(0.0);
            push(1.0, item("channels", &r, "max_queue_len", queue, "slow consumer: the queue kept growing"));
        }
    }
    for r in rows("mutexes") {
        let wait = number_at(&r, "wait.total_ns").unwrap_or(0.0);
        push(wait / wall, item("mutexes", &r, "wait.total_ns", wait, "time threads waited for this lock"));
    }
    for r in rows("rw_locks") {
        let wait =
            number_at(&r, "writes.wait.total_ns").unwrap_or(0.0) + number_at(&r, "reads.wait.total_ns").unwrap_or(0.0);
        push(wait / wall, item("rw_locks", &r, "wait_ns", wait, "time threads waited for this lock"));
    }
    for r in rows("io") {
        let ns = number_at(&r, "read.timed_ns").unwrap_or(0.0) + number_at(&r, "write.timed_ns").unwrap_or(0.0);
        push(ns / wall, item("io", &r, "timed_ns", ns, "time inside reads and writes"));
    }
    let runtimes = report.get("tokio_runtime").and_then(|t| t.get("runtimes")).and_then(Value::as_array);
    for runtime in runtimes.into_iter().flatten() {
        for flag in runtime.get("flags").and_then(Value::as_array).into_iter().flatten() {
            let name = runtime.get("name").cloned().unwrap_or(Value::Null);
            push(
                1.0,
                json!({"section": "tokio_runtime", "name": name, "metric": flag.get("kind"), "why": flag.get("message")}),
            );
        }
    }
    items.sort_by(|a, b| b.0.total_cmp(&a.0));
    let ranked: Vec<Value> = items
        .into_iter()
        .filter(|(share, _)| *share > 0.0)
        .take(limit)
        .map(|(share, mut v)| {
            v["share"] = json!((share * 1000.0).round() / 1000.0);
            v
        })
        .collect();
    json!({ "wall_ns": wall as u64, "hotspots": ranked })
}

fn item(section: &str, row: &Value, metric: &str, value: f64, why: &str) -> Value {
    json!({ "section": section, "name": row.get("name"), "metric": metric, "value": value as u64, "why": why })
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

    #[test]
    fn ranks_across_sections_by_share() {
        let report: Map<String, Value> = serde_json::from_value(json!({
            "meta": {"wall_ns": 1000},
            "functions_timing": {"rows": [{"name": "a", "self_ns": 100}, {"name": "b", "self_ns": 600}]},
            "channels": {"rows": [{"name": "jobs", "slow_consumer": true, "max_queue_len": 900}]},
            "mutexes": {"rows": [{"name": "state", "wait": {"total_ns": 300}}]},
        }))
        .unwrap();
        let result = hotspots(&report, 3);
        let names: Vec<&str> =
            result["hotspots"].as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["jobs", "b", "state"]);
        assert!(summary(&result).starts_with("1. [channels] jobs"));
    }
}
