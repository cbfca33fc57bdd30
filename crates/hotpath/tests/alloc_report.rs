//! `#[hotpath::main(allocator = ...)]` wraps the program's own allocator: the program's
//! allocator still serves every request, and functions-alloc reports the functions.
#![cfg(feature = "hotpath-alloc")]

mod common;

use common::{command, json_report, run, stderr, stdout, table_row};

#[test]
fn wraps_the_programs_allocator() {
    let out = run(&mut command("custom_allocator"));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let served: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("custom allocator served "))
        .and_then(|l| l.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(served >= 10_000, "the program's allocator served the allocations: {served}");
    assert!(text.contains("functions-alloc - Heap allocations per call"), "{text}");
    let row = table_row(&text, "custom_allocator::build_index");
    assert_eq!(row[1], "1", "calls: {row:?}");

    let report = json_report(&run(command("custom_allocator").env("HOTPATH_OUTPUT_FORMAT", "json")));
    let rows = report["functions_alloc"]["rows"].as_array().unwrap();
    let index = rows.iter().find(|r| r["name"] == "custom_allocator::build_index").unwrap();
    assert!(index["allocs_total"].as_u64().unwrap() >= 10_000, "{index}");
    let longest = rows.iter().find(|r| r["name"] == "custom_allocator::longest").unwrap();
    assert_eq!(longest["allocs_total"], 0, "{longest}");
}
