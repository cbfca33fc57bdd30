//! Closing a channel costs the same however many are open at its site: 100,000 oneshots
//! made at one site, all open at once, then closed oldest first (the order a linear
//! search of the open list pays most for), leave nothing open and every count exact.
#![cfg(feature = "hotpath")]

mod common;

const CHANNELS: u64 = 100_000;

#[test]
fn hundred_thousand_oneshots_close_and_leave_nothing_open() {
    common::session();
    let make = || hotpath::channel!(tokio::sync::oneshot::channel::<u64>(), label = "reply");
    // A first channel creates the entry and this thread's cells.
    let (tx, mut rx) = make();
    tx.send(0).unwrap();
    rx.try_recv().unwrap();
    drop(rx);
    let bytes = hotpath::__private::profiler_bytes();
    let mut open = Vec::with_capacity(CHANNELS as usize);
    for i in 0..CHANNELS {
        let (tx, rx) = make();
        if i % 2 == 0 {
            tx.send(i).unwrap();
            open.push((None, Some(rx)));
        } else {
            open.push((Some(tx), Some(rx)));
        }
    }
    let row = |report: &hotpath::__private::model::Report| {
        report.channels.clone().unwrap().rows.into_iter().find(|r| r.name == "reply").unwrap()
    };
    let opened = row(&common::report());
    assert_eq!((opened.instances, opened.sent, opened.state.as_str()), (CHANNELS + 1, CHANNELS / 2 + 1, "open"));
    for (tx, rx) in &mut open {
        if let Some(mut rx) = rx.take() {
            if tx.is_none() {
                rx.try_recv().unwrap();
            }
        }
        drop(tx.take());
    }
    drop(open);
    let closed = row(&common::report());
    assert_eq!(
        (closed.instances, closed.closed_instances, closed.sent, closed.received, closed.queue_len),
        (CHANNELS + 1, CHANNELS + 1, CHANNELS / 2 + 1, CHANNELS / 2 + 1, 0)
    );
    assert_eq!(closed.state, "closed");
    // Every instance is freed with its last half; only histogram octaves may remain.
    let grown = hotpath::__private::profiler_bytes() - bytes;
    assert!(grown % 512 == 0 && grown <= 59 * 512, "{grown} bytes left after closing every channel");
}
