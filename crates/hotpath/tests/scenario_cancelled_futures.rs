//! The cancelled_futures example: futures dropped by a timeout are counted as
//! cancelled, for the `future!` site and for the measured async function inside it.
#![cfg(feature = "hotpath")]

mod common;

use common::{command, json_report, run, stdout};

#[test]
fn timeouts_cancel_futures() {
    let out = run(command("cancelled_futures").env("HOTPATH_OUTPUT_FORMAT", "json"));
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(stdout(&out).starts_with("10 timed out, fetched 10\n"));
    let report = json_report(&out);
    let rows = report["futures"]["rows"].as_array().unwrap();
    let row = |name: &str| rows.iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("{name}: {rows:#?}"));
    let timed = row("fetch-with-timeout");
    assert_eq!((timed["calls"].as_u64(), timed["cancelled"].as_u64()), (Some(0), Some(10)));
    assert_eq!(timed["kind"], "future");
    // Polled at least once each (pending on the sleep), then dropped by the timeout.
    assert!(timed["polls"].as_u64().unwrap() >= 10, "{timed:#}");
    let fetch = row("fetch");
    assert_eq!((fetch["calls"].as_u64(), fetch["cancelled"].as_u64()), (Some(5), Some(0)));
    assert!(fetch["wall"]["percentiles_ns"]["p50"].as_u64().unwrap() >= 5_000_000, "{fetch:#}");
    let inner = row("cancelled_futures::fetch");
    assert_eq!(inner["kind"], "async_fn");
    assert_eq!((inner["calls"].as_u64(), inner["cancelled"].as_u64()), (Some(5), Some(10)));
}

#[test]
fn table_columns() {
    let text = stdout(&run(&mut command("cancelled_futures")));
    let columns = common::table_columns_named(&text, "| Future");
    let mut expected = vec![
        "Future",
        "Kind",
        "Calls",
        "Cancelled",
        "Polls",
        "Busy/Call",
        "Wall Avg",
        "Wall P50",
        "Wall P95",
        "Wall P99",
        "Wall Total",
    ];
    if cfg!(feature = "hotpath-alloc") {
        expected.extend(["Alloc/Call", "Allocs/Call"]);
    }
    assert_eq!(columns, expected);
    assert_eq!(&common::table_row(&text, "fetch-with-timeout")[1..4], ["future", "0", "10"]);
}
