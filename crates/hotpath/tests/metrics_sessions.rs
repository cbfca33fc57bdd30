//! `/metrics` of a process that runs two sessions one after the other: the live
//! server outlives the first, and its counters go on from where the first left them
//! (a Prometheus counter never goes down while the process lives); the builder's
//! process label leads every series and its refused one (`le`) is nowhere.
#![cfg(all(feature = "hotpath", feature = "live", unix))]

mod common;

use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::live::Live;

/// Calls of `step` on `/metrics`, when served.
fn step_calls(live: &Live) -> Option<f64> {
    let body = live.get("/metrics", "").body;
    for line in body.lines().filter(|l| !l.starts_with('#')) {
        assert!(line.starts_with("hotpath_") && line.contains("{service=\"jobs\""), "{line}");
        assert!(!line.contains("le=\"x\""), "{line}");
    }
    let line =
        body.lines().find(|l| l.starts_with("hotpath_function_duration_seconds_count{") && l.contains("::step\"}"))?;
    line.rsplit_once(' ')?.1.parse().ok()
}

/// Polls until `step` shows `want` calls; every value seen on the way is at least `floor`.
fn wait_for(live: &Live, want: f64, floor: f64) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let seen = step_calls(live);
        if let Some(n) = seen {
            assert!(n >= floor, "the counter went down to {n} (at least {floor} was served)");
            if n == want {
                return;
            }
        }
        assert!(Instant::now() < deadline, "step never showed {want} calls (last: {seen:?})");
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
    wait_for(&live, 40.0, 0.0);
    stdin.write_all(b"next\n").unwrap();
    // The second session counts 25 from zero; /metrics serves 40 + 25.
    wait_for(&live, 65.0, 40.0);
    stdin.write_all(b"end\n").unwrap();
    drop(stdin);
    let status = live.child.wait().unwrap();
    assert!(status.success(), "{status}");
}
