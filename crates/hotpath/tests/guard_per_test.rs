//! A test harness that builds a guard per `#[test]`, as a library's tests would:
//! each test's report holds its own calls only. Tests run on parallel threads; one
//! session runs at a time, so the tests take turns through a lock.
#![cfg(feature = "hotpath")]

use std::sync::Mutex;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[hotpath::measure]
fn parse(text: &str) -> usize {
    text.split(',').count()
}

/// Runs `body` under a guard writing JSON to a file of its own; returns the report.
fn profiled(name: &'static str, body: impl FnOnce()) -> serde_json::Value {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let path = std::env::temp_dir().join(format!("hotpath-per-test-{}-{name}.json", std::process::id()));
    let guard = hotpath::HotpathGuardBuilder::new(name).format(hotpath::Format::Json).output_path(&path).build();
    body();
    drop(guard);
    let text = std::fs::read_to_string(&path).expect("the report file");
    let _ = std::fs::remove_file(&path);
    serde_json::from_str(&text).expect("a JSON report")
}

fn parse_calls(report: &serde_json::Value) -> u64 {
    report["functions_timing"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "guard_per_test::parse")
        .map_or(0, |r| r["calls"].as_u64().unwrap())
}

#[test]
fn first_test_counts_its_own_calls() {
    let report = profiled("first", || {
        (0..7).for_each(|_| {
            std::hint::black_box(parse("a,b"));
        })
    });
    assert_eq!(report["meta"]["caller"], "first");
    assert_eq!(parse_calls(&report), 7);
}

#[test]
fn second_test_counts_its_own_calls() {
    let report = profiled("second", || {
        (0..3).for_each(|_| {
            std::hint::black_box(parse("a"));
        })
    });
    assert_eq!(parse_calls(&report), 3);
}

#[test]
fn third_test_counts_calls_on_other_threads_too() {
    let report = profiled("third", || {
        std::thread::spawn(|| {
            (0..5).for_each(|_| {
                std::hint::black_box(parse("x,y,z"));
            })
        })
        .join()
        .unwrap();
    });
    assert_eq!(parse_calls(&report), 5);
}
