//! One report file to the samples a comparison needs. Two passes over the file, each
//! streaming: the typed model validates the whole report (any error names the file)
//! and gives the run's facts, `functions_timing` and the sections whose rows list
//! their figures (`typed.rs`); then every other section is read generically
//! (`generic/`), so that sections this build has no type for are compared too. Nothing holds the file's text or a JSON tree of it.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use anyhow::Context;
use hotpath_model::{Report, Unit};
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

use super::generic::SectionSeed;
use super::samples::{RunSamples, Section, RUN_SECTION};
use super::timing;
use super::typed;
use crate::input;

/// Whether the model's section table says a section is compared. Sections that
/// describe the run's environment (thread scheduling, RSS, CPU sampling noise) are not:
/// a difference there is no regression. A section this build does not know is
/// compared generically.
fn compared(key: &str) -> bool {
    hotpath_model::SECTIONS.iter().find(|d| d.key == key).is_none_or(|d| d.compared)
}

/// The section where `#[measure]` async functions appear a second time.
const FUTURES: &str = "futures";

/// Reads the report at `path` as side `which` (`base` or `head`).
pub(crate) fn read(which: &str, path: &Path, max_bytes: u64) -> anyhow::Result<RunSamples> {
    let shown = format!("{which} report {}", path.display());
    let report = input::read_report(path, max_bytes).map_err(|e| e.named(&shown))?;
    let mut samples = typed(&report);
    let limit = report.meta.limit;
    let duplicates = async_duplicates(&report);
    drop(report);
    let reader = input::open(path, max_bytes).with_context(|| format!("cannot read {shown}"))?;
    let mut de = serde_json::Deserializer::from_reader(reader);
    de.deserialize_map(Generic { samples: &mut samples, limit }).with_context(|| shown.clone())?;
    if let Some(futures) = samples.sections.get_mut(FUTURES) {
        futures.rows.retain(|name, _| !duplicates.contains(name));
    }
    samples.async_duplicates = duplicates.len();
    // Counts in a report under Callgrind; timings there are those of a program slowed
    // down fifty times, never compared.
    if samples.sections.get(crate::compare::icount::SECTION).is_some_and(|s| !s.rows.is_empty()) {
        samples.under_callgrind = true;
        samples.drop_timings();
    }
    Ok(samples)
}

/// The run's wall time and `functions_timing`, from the typed report.
fn typed(report: &Report) -> RunSamples {
    let mut samples = RunSamples::default();
    let mut run = Section::default();
    run.push(&report.meta.caller, "wall_ns", "wall", Unit::Nanoseconds, report.meta.wall_ns as f64);
    samples.sections.insert(RUN_SECTION.to_string(), run);
    if let Some(t) = &report.functions_timing {
        samples.sections.insert(timing::SECTION.to_string(), timing::section(t));
    }
    typed::add(&mut samples, report, compared);
    samples
}

/// Names of `futures` rows that are `#[measure]` async functions also listed in
/// `functions_timing`: compared there, with its calls, percentiles and self time.
fn async_duplicates(report: &Report) -> HashSet<String> {
    let (Some(timing), Some(futures)) = (&report.functions_timing, &report.futures) else { return HashSet::new() };
    let timed: HashSet<&str> = timing.rows.iter().filter(|r| r.is_async).map(|r| r.name.as_str()).collect();
    futures
        .rows
        .iter()
        .filter(|r| r.kind == "async_fn" && timed.contains(r.name.as_str()))
        .map(|r| r.name.clone())
        .collect()
}

/// The top level of the report, for the sections read generically.
struct Generic<'a> {
    samples: &'a mut RunSamples,
    limit: usize,
}

impl<'de> Visitor<'de> for Generic<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON report")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            // Read typed in the first pass (`typed::add`), when its rows list their figures.
            let typed = matches!(key.as_str(), "schema_version" | "meta" | timing::SECTION)
                || self.samples.sections.contains_key(&key);
            if typed || !compared(key.as_str()) {
                map.next_value::<IgnoredAny>()?;
                // A typed section, read in the first pass, keeps its place in the report's order.
                if let Some(section) = self.samples.sections.shift_remove(&key) {
                    self.samples.sections.insert(key, section);
                }
            } else if let Some(section) = map.next_value_seed(SectionSeed { key: &key, limit: self.limit })? {
                self.samples.sections.insert(key, section);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = r#"{
        "schema_version": 1,
        "meta": {"hotpath_version": "0.23.0", "caller": "app::main", "pid": 1, "started_unix_ms": 0,
                 "wall_ns": 5000, "ended_by": "main_returned", "percentiles": [50.0], "limit": 0,
                 "clock": "tsc", "dropped": 0},
        "functions_timing": {"total_functions": 2, "rows": [
            {"name": "app::f", "file": "src/main.rs", "line": 3, "is_async": false, "calls": 2, "cancelled": 0,
             "polls": 0, "busy_ns": 0, "total_ns": 400, "self_ns": 300, "avg_ns": 200, "min_ns": 100,
             "max_ns": 300, "percentiles_ns": {"p50": 190}},
            {"name": "app::fetch", "file": "src/main.rs", "line": 9, "is_async": true, "calls": 1, "cancelled": 0,
             "polls": 3, "busy_ns": 10, "total_ns": 90, "self_ns": 10, "avg_ns": 90, "min_ns": 90,
             "max_ns": 90, "percentiles_ns": {"p50": 90}}]},
        "futures": {"total_futures": 2, "rows": [
            {"name": "app::fetch", "file": "src/main.rs", "line": 9, "kind": "async_fn", "calls": 1, "cancelled": 0,
             "polls": 3, "busy_ns": 10, "wall": {"count": 1, "total_ns": 90, "avg_ns": 90, "max_ns": 90,
             "percentiles_ns": {"p50": 90}}},
            {"name": "timeout", "file": "src/main.rs", "line": 20, "kind": "future", "calls": 1, "cancelled": 0,
             "polls": 1, "busy_ns": 10, "wall": {"count": 1, "total_ns": 50, "avg_ns": 50, "max_ns": 50,
             "percentiles_ns": {"p50": 50}}}]},
        "threads": {"pid": 1, "rss_bytes": 1, "interval_ms": 1, "samples": 1, "total_threads": 0, "rows": []},
        "custom_alloc": {"total_functions": 1, "rows": [
            {"name": "app::f", "alloc_bytes": 4096, "alloc_count": 3, "line": 3}]}
    }"#;

    #[test]
    fn keeps_typed_and_unknown_sections_and_compares_async_functions_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        std::fs::write(&path, REPORT).unwrap();
        let samples = read("base", &path, 1 << 20).unwrap();
        let names: Vec<&String> = samples.sections.keys().collect();
        assert_eq!(names, ["run", "functions_timing", "futures", "custom_alloc"]);
        assert_eq!(samples.sections["run"].rows["app::main"][0].1, 5000.0);
        let alloc = &samples.sections["custom_alloc"];
        let keys: Vec<(&str, Unit)> =
            alloc.rows["app::f"].iter().map(|(m, _)| (alloc.info(*m).key.as_str(), alloc.info(*m).unit)).collect();
        assert_eq!(keys, [("alloc_bytes", Unit::Bytes), ("alloc_count", Unit::Count)]);
        let futures: Vec<&String> = samples.sections["futures"].rows.keys().collect();
        assert_eq!(futures, ["timeout"], "app::fetch is compared in functions_timing only");
        assert_eq!(samples.async_duplicates, 1);
        assert!(samples.has_measurements());
    }

    #[test]
    fn typed_sections_keep_their_place_in_the_report() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        let mutexes = r#""mutexes": {"total_mutexes": 0, "rows": []}, "threads":"#;
        std::fs::write(&path, REPORT.replace(r#""threads":"#, mutexes)).unwrap();
        let samples = read("base", &path, 1 << 20).unwrap();
        let names: Vec<&String> = samples.sections.keys().collect();
        assert_eq!(names, ["run", "functions_timing", "futures", "mutexes", "custom_alloc"]);
    }

    #[test]
    fn errors_name_the_side_and_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        std::fs::write(&path, REPORT.replace("\"calls\": 2", "\"calls\": \"two\"")).unwrap();
        let err = format!("{:#}", read("head", &path, 1 << 20).unwrap_err());
        assert!(err.starts_with(&format!("head report {}: not a valid hotpath JSON report", path.display())), "{err}");
    }
}
