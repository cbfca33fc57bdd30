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

/// The profiler's own allocations are not the program's: the standard library copies a
/// named thread's name at its start, before the thread's code runs, and the budget's
/// `hp-budget` thread made a run with a budget read 9 bytes and 1 allocation more than
/// one without.
#[test]
fn the_profilers_threads_allocate_nothing_of_the_programs() {
    let process = |budget: Option<&str>| {
        let mut cmd = command("case_budget");
        cmd.args(["split", "3000"]).env("HOTPATH_OUTPUT_FORMAT", "json");
        if let Some(b) = budget {
            cmd.env("HOTPATH_OVERHEAD_BUDGET", b);
        }
        let report = json_report(&run(&mut cmd));
        let section = &report["functions_alloc"];
        (section["process_alloc_bytes"].as_u64(), section["process_allocs"].as_u64(), report["meta"].clone())
    };
    let (bytes, allocs, _) = process(None);
    let (budget_bytes, budget_allocs, meta) = process(Some("1%"));
    assert!(meta["overhead"].is_object(), "the budget ran: {meta}");
    assert!(bytes.is_some_and(|b| b > 0), "{bytes:?}");
    assert_eq!((budget_bytes, budget_allocs), (bytes, allocs));
}
