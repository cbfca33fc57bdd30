//! `/metrics` of a process that runs two sessions one after the other: the live
//! server outlives the first, and its counters go on from where the first left them
//! (a Prometheus counter never goes down while the process lives), and a count the
//! channel keeps across sessions is not added twice; the builder's process label
//! leads every series and its refused one (`le`) is nowhere.
#![cfg(all(feature = "hotpath", feature = "live", unix))]

mod common;

use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::live::Live;

/// Calls of `step` and messages sent on `jobs`, on `/metrics`, when served.
fn counts(live: &Live) -> (Option<f64>, Option<f64>) {
    let body = live.get("/metrics", "").body;
    for line in body.lines().filter(|l| !l.starts_with('#')) {
        assert!(line.starts_with("hotpath_") && line.contains("{service=\"jobs\""), "{line}");
        assert!(!line.contains("le=\"x\""), "{line}");
    }
    let value = |prefix: &str, tail: &str| {
        let line = body.lines().find(|l| l.starts_with(prefix) && l.contains(tail))?;
        line.rsplit_once(' ')?.1.parse().ok()
    };
    (
        value("hotpath_function_duration_seconds_count{", "::step\"}"),
        value("hotpath_channel_sent_total{", "channel=\"jobs\"}"),
    )
}

/// Polls until `step` shows `calls` and `jobs` `sent`; every count seen on the way is at
/// least `floor`'s.
fn wait_for(live: &Live, calls: f64, sent: f64, floor: (f64, f64)) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let seen = counts(live);
        if let (Some(c), Some(s)) = seen {
            assert!(c >= floor.0 && s >= floor.1, "a counter went down: {seen:?} after {floor:?}");
            if (c, s) == (calls, sent) {
                return;
            }
        }
        assert!(Instant::now() < deadline, "never {calls} calls and {sent} sent (last: {seen:?})");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn counters_go_on_across_sessions() {
    let mut cmd = common::command("case_live_sessions");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF")
        .env("HOTPATH_METRICS_PORT", "0")
        .env("HOTPATH_OUTPUT_FORMAT", "none")
        .stdin(Stdio::piped());
    let mut live = Live::start(cmd);
    let mut stdin = live.child.stdin.take().unwrap();
    wait_for(&live, 40.0, 3.0, (0.0, 0.0));
    stdin.write_all(b"next\n").unwrap();
    // The second session counts 25 calls from zero: /metrics serves 40 + 25. The channel
    // counts its own messages across sessions: 3 + 2, not added twice.
    wait_for(&live, 65.0, 5.0, (40.0, 3.0));
    stdin.write_all(b"end\n").unwrap();
    drop(stdin);
    let status = live.child.wait().unwrap();
    assert!(status.success(), "{status}");
}
