//! What the channels section counts, exactly: messages, queue length and its maximum,
//! latencies paired with sends, blocked sends, instances and closing, rows keyed by
//! site and message type, `iter = true` rows.
#![cfg(feature = "hotpath")]

use std::sync::mpsc::{channel, sync_channel};
use std::time::Duration;

use hotpath::__private::model::{ChannelRow, Report};

mod common;

fn row<'a>(report: &'a Report, name: &str) -> &'a ChannelRow {
    let rows = &report.channels.as_ref().expect("channels section").rows;
    rows.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no row {name} in {rows:#?}"))
}

#[test]
fn counts_queue_and_latency() {
    common::session();
    let (tx, rx) = hotpath::channel!(channel::<u64>(), label = "counts");
    for i in 0..10 {
        tx.send(i).unwrap();
    }
    std::thread::sleep(Duration::from_millis(20));
    for _ in 0..4 {
        rx.recv().unwrap();
    }
    let report = common::report();
    let r = row(&report, "counts");
    assert_eq!((r.sent, r.received, r.queue_len, r.max_queue_len), (10, 4, 6, 10));
    assert_eq!((r.instances, r.closed_instances, r.state.as_str()), (1, 0, "open"));
    assert_eq!(r.kind, "std::channel");
    assert_eq!(r.message_type, "u64");
    assert_eq!(r.latency.count, 4, "every received message was stamped");
    assert!(r.latency.percentiles_ns.0.iter().all(|(_, v)| *v >= 20_000_000), "waited 20 ms: {:?}", r.latency);
    assert_eq!(r.blocked.count, 0);
    drop(tx);
    assert_eq!(rx.iter().count(), 6);
    let report = common::report();
    let r = row(&report, "counts");
    assert_eq!((r.sent, r.received, r.queue_len, r.state.as_str()), (10, 10, 0, "closed"));
    assert_eq!(r.latency.count, 10);
}

#[test]
fn blocked_sends_on_a_full_channel() {
    common::session();
    let (tx, rx) = hotpath::channel!(sync_channel::<u32>(1), label = "blocked");
    tx.send(0).unwrap();
    let consumer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        rx.iter().count()
    });
    tx.send(1).unwrap(); // full until the consumer wakes up
    drop(tx);
    assert_eq!(consumer.join().unwrap(), 2);
    let report = common::report();
    let r = row(&report, "blocked");
    assert_eq!((r.sent, r.received), (2, 2));
    assert_eq!(r.blocked.count, 1);
    assert!(r.blocked.total_ns >= 10_000_000, "{:?}", r.blocked);
    assert!(r.max_queue_len <= 2, "capacity 1, plus at most one receive in flight: {}", r.max_queue_len);
}

#[test]
fn one_row_per_site_and_message_type_however_many_channels() {
    common::session();
    fn make<T>() -> (hotpath::wrap::std::sync::mpsc::Sender<T>, hotpath::wrap::std::sync::mpsc::Receiver<T>) {
        hotpath::channel!(channel::<T>(), label = "per-type")
    }
    // Warm up: the site's entries exist after the first channel of each type.
    drop(make::<u8>());
    drop(make::<String>());
    for i in 0..5000u32 {
        let (tx, rx) = make::<u8>();
        tx.send(i as u8).unwrap();
        rx.recv().unwrap();
        let (tx, rx) = make::<String>();
        tx.send(i.to_string()).unwrap();
        drop(rx);
        drop(tx);
    }
    let report = common::report();
    let rows: Vec<&ChannelRow> =
        report.channels.as_ref().unwrap().rows.iter().filter(|r| r.name == "per-type").collect();
    assert_eq!(rows.len(), 2, "{rows:#?}");
    let bytes_row = rows.iter().find(|r| r.message_type == "u8").unwrap();
    assert_eq!(
        (bytes_row.instances, bytes_row.closed_instances, bytes_row.sent, bytes_row.received),
        (5001, 5001, 5000, 5000)
    );
    let strings = rows.iter().find(|r| r.message_type == "String").unwrap();
    assert_eq!((strings.instances, strings.sent, strings.received, strings.queue_len), (5001, 5000, 0, 0));
}

#[test]
fn iter_gives_each_channel_its_own_row() {
    common::session();
    let pairs: Vec<_> = (0..3).map(|_| hotpath::channel!(channel::<u32>(), label = "each", iter = true)).collect();
    for (i, (tx, _)) in pairs.iter().enumerate() {
        for _ in 0..=i {
            tx.send(1).unwrap();
        }
    }
    let report = common::report();
    let sent: Vec<(String, u64)> =
        ["each", "each-2", "each-3"].iter().map(|n| (n.to_string(), row(&report, n).sent)).collect();
    assert_eq!(sent, [("each".into(), 1), ("each-2".into(), 2), ("each-3".into(), 3)]);
}

#[test]
fn unlabelled_rows_are_named_by_file_and_line() {
    common::session();
    let (tx, rx) = hotpath::channel!(channel::<i8>());
    tx.send(1).unwrap();
    rx.recv().unwrap();
    let report = common::report();
    let r = report.channels.as_ref().unwrap().rows.iter().find(|r| r.message_type == "i8").unwrap();
    assert_eq!(r.name, format!("{}:{}", r.file, r.line));
    assert!(r.file.ends_with("channel_metrics.rs"), "{}", r.file);
}

#[test]
fn a_waiting_consumer_still_gets_latencies() {
    common::session();
    let (tx, rx) = hotpath::channel!(channel::<u32>(), label = "ping");
    let consumer = std::thread::spawn(move || rx.iter().count());
    for i in 0..1000 {
        tx.send(i).unwrap();
        if i % 10 == 0 {
            std::thread::sleep(Duration::from_micros(200)); // let the consumer block in recv
        }
    }
    drop(tx);
    assert_eq!(consumer.join().unwrap(), 1000);
    let report = common::report();
    let r = row(&report, "ping");
    // A receive that overtakes its sender's stamp leaves its tick for the sender, so
    // nearly every message is paired (a send and receive colliding on the slot in the
    // same instant can lose one).
    assert!(r.latency.count >= 900, "{:?}", r.latency);
}
