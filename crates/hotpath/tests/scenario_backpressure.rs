//! The backpressure example: sends on a full bounded channel are reported as blocked,
//! and the queue never exceeds the capacity (plus one receive in flight).
#![cfg(feature = "hotpath")]

mod common;

use common::{command, json_report, run};

#[test]
fn full_channel_blocks_senders() {
    let out = run(command("backpressure").env("HOTPATH_OUTPUT_FORMAT", "json"));
    assert!(out.status.success(), "{}", common::stderr(&out));
    let report = json_report(&out);
    let frames = report["channels"]["rows"].as_array().unwrap().iter().find(|r| r["name"] == "frames").unwrap();
    assert_eq!(frames["kind"], "std::sync_channel");
    assert_eq!(frames["message_type"], "Vec<u8>");
    assert_eq!((frames["sent"].as_u64(), frames["received"].as_u64()), (Some(40), Some(40)));
    let blocked = &frames["blocked"];
    let count = blocked["count"].as_u64().unwrap();
    assert!((1..=36).contains(&count), "only sends past the capacity can block: {blocked:#}");
    // The first blocked send waited for the consumer's 100 ms start.
    assert!(blocked["max_ns"].as_u64().unwrap() >= 50_000_000, "{blocked:#}");
    let max = frames["max_queue_len"].as_u64().unwrap();
    assert!((4..=5).contains(&max), "capacity 4: {max}");
    assert_eq!(frames["slow_consumer"], false, "a full queue does not grow");
}
