//! Profiler memory is bounded by `channel!` sites, not by the channels created there:
//! a channel's instance state is freed with its last half, and its numbers fold into
//! the site's row. (Alone in its binary: it reads the process-wide byte count.)
#![cfg(feature = "hotpath")]

use std::sync::mpsc::channel;

mod common;

const OCTAVE_BYTES: usize = 64 * 8;

#[test]
fn many_channels_at_one_site_leave_nothing_behind() {
    common::session();
    let make = || hotpath::channel!(channel::<u64>(), label = "churn");
    let (tx, rx) = make();
    tx.send(1).unwrap();
    rx.recv().unwrap();
    drop((tx, rx));
    let bytes = hotpath::__private::profiler_bytes();
    let mut live = Vec::new();
    for i in 0..20_000u64 {
        let (tx, rx) = make();
        tx.send(i).unwrap();
        if i % 2 == 0 {
            rx.recv().unwrap();
        }
        live.push((tx, rx));
        if live.len() == 100 {
            live.clear();
        }
    }
    drop(live);
    // The only growth allowed is histogram octaves (64 counters each) for latencies in a
    // power-of-two range not seen before on this thread: at most 59, ever.
    let grown = hotpath::__private::profiler_bytes() - bytes;
    assert!(grown % OCTAVE_BYTES == 0 && grown / OCTAVE_BYTES <= 59, "grew by {grown} bytes");
    let report = common::report();
    let row = report.channels.unwrap().rows.into_iter().find(|r| r.name == "churn").unwrap();
    assert_eq!((row.instances, row.closed_instances, row.sent, row.received), (20_001, 20_001, 20_001, 10_001));
    assert_eq!(row.queue_len, 0, "closed channels hold no queue");
}
