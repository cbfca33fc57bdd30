//! `#[hotpath::main]` on either side of `#[tokio::main]`, and every function shape
//! `#[measure]`, `#[measure_all]` and `measure_block!` accept.
#![cfg(feature = "hotpath")]

mod common;

use common::{command, json_report, row, run, stderr};

fn check_tokio(program: &str) {
    let out = run(&mut command(program));
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json_report(&out);
    assert_eq!(report["meta"]["caller"], format!("{program}::main"));
    let fetch = row(&report, &format!("{program}::fetch"));
    assert_eq!(fetch["calls"], 20);
    assert_eq!(fetch["is_async"], true);
    assert!(fetch["self_ns"].as_u64().unwrap() <= fetch["total_ns"].as_u64().unwrap());
}

#[test]
fn hotpath_main_below_tokio_main() {
    check_tokio("case_tokio_outer");
}

#[test]
fn hotpath_main_above_tokio_main() {
    check_tokio("case_tokio_inner");
}

#[test]
fn every_function_shape_is_counted() {
    let out = run(&mut command("case_shapes"));
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json_report(&out);
    let expected = [
        ("case_shapes::free", 2, false),
        ("case_shapes::generic", 2, false),
        ("case_shapes::early", 2, false),
        ("case_shapes::question", 2, false),
        ("case_shapes::iter_impl", 1, false),
        ("custom-label", 1, false),
        ("case_shapes::async_question", 3, true),
        ("case_shapes::async_impl", 1, true),
        ("case_shapes::Dog::method", 1, false),
        ("<case_shapes::Dog as case_shapes::Speak>::speak", 1, false),
        ("case_shapes::Counter::bump", 1, false),
        ("case_shapes::Counter::bump_async", 1, true),
        ("case_shapes::module::in_module", 1, false),
        ("sync-block", 1, false),
        ("await-block", 1, true),
    ];
    for (name, calls, is_async) in expected {
        let r = row(&report, name);
        assert_eq!(r["calls"], calls, "{name}");
        assert_eq!(r["is_async"], is_async, "{name}");
    }
    let rows = report["functions_timing"]["rows"].as_array().unwrap();
    let measured: Vec<_> = rows.iter().filter(|r| r["name"] != "case_shapes::main").collect();
    assert_eq!(measured.len(), expected.len(), "skipped and const functions have no row: {rows:#?}");
}
