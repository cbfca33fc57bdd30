//! Sampled heap profiling on real programs: a known leak inside heavy churn is named
//! at the top of the `heap` section with its function and line, its true size inside
//! the stated 95% interval, the churn sites show nothing live; the allow-list hides
//! it; the pprof file decodes (an independent reader of pprof's profile.proto) and
//! its totals match the section; a growing cache is flagged, a steady one is not.
#![cfg(all(feature = "hotpath-heap", target_os = "linux"))]

mod common;

use std::io::Read;

use common::live::Live;
use common::{command, json_report, run, stderr};

// Each test reads part of the fields.
#[allow(dead_code)]
#[path = "common/pprof.rs"]
mod pprof;

const LEAKED_BYTES: u64 = 20_000 * 1024;

/// The line of `heap_leak.rs` marked `// LEAK LINE`.
fn leak_line() -> u32 {
    let source = include_str!("programs/heap_leak.rs");
    source.lines().position(|l| l.contains("// LEAK LINE")).expect("marked line") as u32 + 1
}

fn heap_run(extra: &[(&str, &str)]) -> serde_json::Value {
    let mut cmd = command("case_heap_leak");
    cmd.env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_HEAP_SAMPLE_BYTES", "65536");
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let out = run(&mut cmd);
    assert!(out.status.success(), "{}", stderr(&out));
    json_report(&out)["heap"].clone()
}

#[test]
fn a_leak_in_churn_is_named_with_its_line_and_its_true_size_in_the_interval() {
    let dir = std::env::temp_dir().join(format!("hotpath-heap-{}", std::process::id()));
    let heap = heap_run(&[("HOTPATH_HEAP_OUTPUT", dir.to_str().unwrap())]);
    let rows = heap["rows"].as_array().expect("heap rows");
    let top = &rows[0];
    assert!(top["function"].as_str().unwrap().ends_with("case_heap_leak::leak_site"), "{heap:#}");
    assert!(top["file"].as_str().unwrap().ends_with("heap_leak.rs"), "{top:#}");
    assert_eq!(top["line"].as_u64().unwrap() as u32, leak_line(), "{top:#}");
    let (low, est, high) = (
        top["live_bytes_low"].as_u64().unwrap(),
        top["live_bytes"].as_u64().unwrap(),
        top["live_bytes_high"].as_u64().unwrap(),
    );
    assert!(
        low <= LEAKED_BYTES && LEAKED_BYTES <= high,
        "true {LEAKED_BYTES} outside [{low}, {high}] (estimate {est})"
    );
    assert!(high - low < LEAKED_BYTES / 2, "the interval says something: [{low}, {high}]");
    let objects = (top["live_objects_low"].as_u64().unwrap(), top["live_objects_high"].as_u64().unwrap());
    assert!(objects.0 <= 20_000 && 20_000 <= objects.1, "{objects:?}");
    assert_eq!(heap["confidence"], 0.95);
    // Per measured function: `round` (the only one) holds the leak.
    let main = &heap["functions"][0];
    assert_eq!(main["name"], "case_heap_leak::round", "{heap:#}");
    let (low, high) = (main["live_bytes_low"].as_u64().unwrap(), main["live_bytes_high"].as_u64().unwrap());
    assert!(low <= LEAKED_BYTES && LEAKED_BYTES <= high, "{main:#}");
    // A million allocations from the churn sites, all freed: none is live.
    for row in rows {
        let function = row["function"].as_str().unwrap();
        assert!(!function.contains("churn_small") && !function.contains("churn_vecs"), "{row:#}");
    }

    // pprof: four sample types; its live totals are the section's (rounded per stack).
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(dir.join("hotpath-heap.pb.gz")).unwrap())
        .read_to_end(&mut raw)
        .unwrap();
    let profile: pprof::Profile = prost::Message::decode(raw.as_slice()).expect("valid pprof protobuf");
    let string = |i: i64| profile.string_table[i as usize].as_str();
    let types: Vec<(&str, &str)> = profile.sample_type.iter().map(|t| (string(t.r#type), string(t.unit))).collect();
    assert_eq!(
        types,
        [("alloc_objects", "count"), ("alloc_space", "bytes"), ("inuse_objects", "count"), ("inuse_space", "bytes")]
    );
    assert_eq!(profile.period, 65536);
    let inuse: i64 = profile.sample.iter().map(|s| s.value[3]).sum();
    let section = heap["live_bytes"].as_i64().unwrap();
    let stacks = profile.sample.len() as i64;
    assert!((inuse - section).abs() <= stacks, "pprof inuse_space {inuse} vs section {section}");
    let alloc: i64 = profile.sample.iter().map(|s| s.value[1]).sum();
    assert!(alloc > inuse, "everything allocated, churn included, exceeds what is live");
    // The leak's stack reaches `leak_site` at the marked line.
    let leak_fn = profile.function.iter().find(|f| string(f.name).ends_with("leak_site")).expect("leak_site");
    assert!(string(leak_fn.filename).ends_with("heap_leak.rs"));
    let at_line = profile
        .location
        .iter()
        .flat_map(|l| &l.line)
        .any(|l| l.function_id == leak_fn.id && l.line == i64::from(leak_line()));
    assert!(at_line, "a location at leak_site's line");
    let svg = std::fs::read_to_string(dir.join("hotpath-heap.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("leak_site"));
    let files = heap["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_allow_list_hides_a_site() {
    let heap = heap_run(&[("HOTPATH_HEAP_IGNORE", "case_heap_leak::leak_site, lazy_static")]);
    let rows = heap["rows"].as_array().expect("heap rows");
    assert!(rows.iter().all(|r| !r["function"].as_str().unwrap().contains("leak_site")), "{heap:#}");
    let ignored = heap["ignored_bytes"].as_u64().unwrap();
    assert!(ignored > LEAKED_BYTES / 2, "{heap:#}");
    assert_eq!(heap["ignore"], serde_json::json!(["case_heap_leak::leak_site", "lazy_static"]));
}

#[test]
fn a_bad_sample_rate_is_one_warning_and_the_default() {
    let mut cmd = command("case_heap_leak");
    cmd.env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_HEAP_SAMPLE_BYTES", "lots");
    let out = run(&mut cmd);
    assert!(out.status.success());
    let warnings: Vec<String> =
        stderr(&out).lines().filter(|l| l.contains("HOTPATH_HEAP_SAMPLE_BYTES")).map(String::from).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].starts_with("[hotpath]"), "{warnings:?}");
    assert_eq!(json_report(&out)["heap"]["sample_bytes"], 512 * 1024);
}

fn growth(mode: &str) -> serde_json::Value {
    let mut cmd = command("case_heap_growth");
    cmd.arg(mode).env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_HEAP_SAMPLE_BYTES", "32768");
    let out = run(&mut cmd);
    assert!(out.status.success(), "{}", stderr(&out));
    json_report(&out)["heap"].clone()
}

fn cache_row(heap: &serde_json::Value) -> serde_json::Value {
    let rows = heap["rows"].as_array().expect("heap rows");
    rows.iter()
        .find(|r| r["function"].as_str().unwrap().ends_with("cache_entry"))
        .cloned()
        .unwrap_or_else(|| panic!("{heap:#}"))
}

#[test]
fn a_growing_cache_is_flagged_and_a_steady_one_is_not() {
    let grow = cache_row(&growth("grow"));
    assert_eq!(grow["growing"], true, "{grow:#}");
    assert_eq!(grow["history"].as_array().unwrap().len(), 8, "{grow:#}");
    let steady = growth("steady");
    let row = cache_row(&steady);
    assert_eq!(row["growing"], false, "{row:#}");
    assert!(steady["rows"].as_array().unwrap().iter().all(|r| r["growing"] == false), "{steady:#}");
}

#[test]
fn the_live_heap_is_served_as_json_and_metrics() {
    let mut cmd = command("case_heap_growth");
    cmd.args(["grow", "serve"])
        .env_remove("HOTPATH_METRICS_SERVER_OFF")
        .env("HOTPATH_METRICS_PORT", "0")
        .env("HOTPATH_OUTPUT_FORMAT", "none")
        .env("HOTPATH_HEAP_SAMPLE_BYTES", "32768");
    let live = Live::start(cmd);
    let serving = std::time::Duration::from_secs(120);
    while live.stderr.recv_timeout(serving).expect("the program reaches its serving state")
        != "case_heap_growth: serving"
    {}
    // Every report built is a snapshot: the first live one follows the program's twelve,
    // so the cache's window (the last 8) still grew in 6 of its 7 steps.
    let metrics = live.get("/metrics", "").body;
    let line = metrics
        .lines()
        .find(|l| l.starts_with("hotpath_heap_live_bytes{") && l.contains("case_heap_growth::cache_entry"))
        .unwrap_or_else(|| panic!("no live bytes series:\n{metrics}"));
    assert!(line.contains("stack=\"case_heap_growth::cache_entry ("), "{line}");
    let growing = metrics.lines().find(|l| l.starts_with("hotpath_heap_growing{") && l.contains("cache_entry"));
    assert!(growing.is_some_and(|l| l.ends_with(" 1")), "{metrics}");
    let heap = live.json("/heap");
    let row = cache_row(&heap);
    let (low, high) = (row["live_bytes_low"].as_u64().unwrap(), row["live_bytes_high"].as_u64().unwrap());
    assert!(low <= 12 * 1000 * 1024 && 12 * 1000 * 1024 <= high, "{row:#}");
}
