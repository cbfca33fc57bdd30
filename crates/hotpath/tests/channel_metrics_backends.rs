//! Channel counts for the flavours beyond one FIFO queue: broadcast (a message queued
//! once per receiver, lagged receivers' skipped messages leave the queue), watch (no
//! queue), oneshot, blocked async sends, and the capacity a backend reports.
#![cfg(all(feature = "hotpath", feature = "tokio", feature = "crossbeam"))]

use std::time::Duration;

use hotpath::__private::model::{ChannelRow, Report};
use tokio::sync::{broadcast, mpsc, oneshot, watch};

mod common;

fn row<'a>(report: &'a Report, name: &str) -> &'a ChannelRow {
    let rows = &report.channels.as_ref().expect("channels section").rows;
    rows.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no row {name} in {rows:#?}"))
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

#[test]
fn broadcast_counts_deliveries() {
    common::session();
    runtime().block_on(async {
        let (tx, mut a) = hotpath::channel!(broadcast::channel::<u32>(4), label = "news");
        let mut b = tx.subscribe();
        for i in 0..3 {
            assert_eq!(tx.send(i).unwrap(), 2);
        }
        let report = common::report();
        let r = row(&report, "news");
        assert_eq!((r.sent, r.received, r.queue_len, r.max_queue_len), (3, 0, 6, 6), "queued once per receiver");
        for _ in 0..3 {
            a.recv().await.unwrap();
        }
        b.recv().await.unwrap();
        for i in 3..9 {
            tx.send(i).unwrap(); // b falls 2 behind a capacity of 4
        }
        assert!(matches!(b.recv().await, Err(broadcast::error::RecvError::Lagged(_))));
        for rx in [&mut a, &mut b] {
            // Until empty; a lagged receiver reports what it skipped, then goes on.
            while !matches!(rx.try_recv(), Err(broadcast::error::TryRecvError::Empty)) {}
        }
        let report = common::report();
        let r = row(&report, "news");
        assert_eq!(r.sent, 9);
        assert_eq!(r.queue_len, 0, "everything was received or skipped: {r:?}");
        assert_eq!(r.latency.count, r.received);
        assert_eq!(r.kind, "tokio::broadcast");
    });
}

#[test]
fn watch_oneshot_and_blocked_async_sends() {
    common::session();
    runtime().block_on(async {
        let (tx, mut rx) = hotpath::channel!(watch::channel::<u8>(0), label = "config");
        tx.send(1).unwrap();
        tx.send(2).unwrap();
        rx.changed().await.unwrap();
        let (once, reply) = hotpath::channel!(oneshot::channel::<String>(), label = "reply");
        once.send("done".into()).unwrap();
        assert_eq!(reply.await.unwrap(), "done");
        let (tx2, mut rx2) = hotpath::channel!(mpsc::channel::<u8>(1), label = "bounded");
        tx2.send(0).await.unwrap();
        let consumer = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let mut n = 0;
            while rx2.recv().await.is_some() {
                n += 1;
            }
            n
        });
        tx2.send(1).await.unwrap(); // full: waits for the consumer
        drop(tx2);
        assert_eq!(consumer.await.unwrap(), 2);
    });
    let report = common::report();
    let config = row(&report, "config");
    assert_eq!((config.sent, config.received, config.queue_len, config.latency.count), (2, 1, 0, 1));
    let reply = row(&report, "reply");
    assert_eq!((reply.sent, reply.received, reply.latency.count, reply.capacity), (1, 1, 1, Some(1)));
    let bounded = row(&report, "bounded");
    assert_eq!((bounded.capacity, bounded.sent, bounded.received), (Some(1), 2, 2));
    assert_eq!(bounded.blocked.count, 1);
    assert!(bounded.blocked.total_ns >= 10_000_000, "{:?}", bounded.blocked);
}

#[test]
fn crossbeam_capacity_and_several_consumers() {
    common::session();
    let (tx, rx) = hotpath::channel!(crossbeam_channel::bounded::<u64>(16), label = "work");
    let consumers: Vec<_> = (0..3)
        .map(|_| {
            let rx = rx.clone();
            std::thread::spawn(move || rx.iter().count())
        })
        .collect();
    drop(rx);
    for i in 0..3000 {
        tx.send(i).unwrap();
    }
    drop(tx);
    assert_eq!(consumers.into_iter().map(|c| c.join().unwrap()).sum::<usize>(), 3000);
    let report = common::report();
    let r = row(&report, "work");
    assert_eq!((r.kind.as_str(), r.capacity), ("crossbeam::bounded", Some(16)));
    assert_eq!((r.sent, r.received, r.queue_len, r.state.as_str()), (3000, 3000, 0, "closed"));
    assert!(r.max_queue_len <= 16 + 3, "capacity, plus receives in flight: {}", r.max_queue_len);
    assert!(r.latency.count >= 2700, "{:?}", r.latency);
}
