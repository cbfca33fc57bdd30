//! The slow_consumer example: its report flags the queue that kept growing, with the
//! exact peak, and leaves the channels that keep up unflagged.
#![cfg(feature = "hotpath")]

mod common;

use common::{command, json_report, run, stdout};

#[test]
fn slow_consumer_is_flagged() {
    let out = run(command("slow_consumer").env("HOTPATH_OUTPUT_FORMAT", "json"));
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(stdout(&out).starts_with("consumed 1500 jobs\n"));
    let report = json_report(&out);
    let rows = report["channels"]["rows"].as_array().unwrap();
    let row = |name: &str| rows.iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("{name}: {rows:#?}"));
    let jobs = row("jobs");
    assert_eq!(jobs["slow_consumer"], true, "{jobs:#}");
    assert_eq!((jobs["sent"].as_u64(), jobs["received"].as_u64()), (Some(1500), Some(1500)));
    assert_eq!(jobs["max_queue_len"], 8 * 149 + 10, "the queue grew by 8 per round");
    assert_eq!(jobs["queue_len"], 0);
    assert_eq!(jobs["state"], "closed");
    // Job 300 was sent in round 30 and received after the last of 150 rounds of >= 10 ms.
    assert!(jobs["latency"]["max_ns"].as_u64().unwrap() >= 1_000_000_000, "{jobs:#}");
    for pacing in ["go", "acks"] {
        assert_eq!(row(pacing)["slow_consumer"], false, "{:#}", row(pacing));
        assert_eq!(row(pacing)["sent"], 150);
    }
    assert_eq!(rows[0]["name"], "jobs", "slow consumers sort first");
}

#[test]
fn table_shows_the_flag_and_the_rule() {
    let out = run(&mut command("slow_consumer"));
    let text = stdout(&out);
    let title = text.lines().find(|l| l.starts_with("channels - ")).unwrap_or_else(|| panic!("{text}"));
    assert!(title.contains("Slow: queue rose in >= 7 of 9 steps"), "{title}");
    let columns = common::table_columns_named(&text, "| Channel");
    assert_eq!(
        columns,
        [
            "Channel",
            "Kind",
            "Message",
            "Inst",
            "Sent",
            "Recv",
            "Queue",
            "Max Q",
            "Blocked",
            "Latency Avg",
            "Latency P50",
            "Latency P95",
            "Latency P99",
            "State",
            "Slow"
        ]
    );
    let jobs = common::table_row(&text, "jobs");
    assert_eq!(&jobs[1..8], ["std::channel", "u32", "1", "1,500", "1,500", "0", "1,202"]);
    assert_eq!(jobs.last().unwrap(), "yes");
}
