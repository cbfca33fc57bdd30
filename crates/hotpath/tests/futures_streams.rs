//! What the futures and streams sections count: `future!` sites beside measured async
//! functions (calls, polls, busy and wall time, cancellation), and `stream!` instances,
//! items, completion, early drops and time per item (per window of 32 items).
#![cfg(feature = "hotpath")]

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use futures_core::Stream;

mod common;

/// Yields `0..n`, returning `Pending` (after waking itself) before every item.
struct Ticks {
    next: u32,
    n: u32,
    pending: bool,
}

impl Stream for Ticks {
    type Item = u32;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<u32>> {
        if self.next == self.n {
            return Poll::Ready(None);
        }
        self.pending = !self.pending;
        if self.pending {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        self.next += 1;
        Poll::Ready(Some(self.next - 1))
    }
}

fn ticks(n: u32) -> Ticks {
    Ticks { next: 0, n, pending: false }
}

async fn next<S: Stream + Unpin>(s: &mut S) -> Option<S::Item> {
    std::future::poll_fn(|cx| Pin::new(&mut *s).poll_next(cx)).await
}

#[hotpath::measure]
async fn measured_fn(ms: u64) -> u64 {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    ms
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

#[test]
fn future_sites_and_async_functions() {
    common::session();
    runtime().block_on(async {
        for _ in 0..3 {
            hotpath::future!(measured_fn(5), label = "sleeper").await;
        }
        let ready = async { 7 };
        assert_eq!(hotpath::future!(ready, label = "ready").await, 7);
        for _ in 0..2 {
            let slow = hotpath::future!(tokio::time::sleep(Duration::from_secs(10)), label = "abandoned");
            assert!(tokio::time::timeout(Duration::from_millis(2), slow).await.is_err());
        }
        // Never polled: not a call, not a cancellation.
        drop(hotpath::future!(async {}, label = "abandoned"));
    });
    let report = common::report();
    let rows = report.futures.unwrap().rows;
    let find = |name: &str| rows.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("{name}: {rows:#?}"));
    let sleeper = find("sleeper");
    assert_eq!((sleeper.kind.as_str(), sleeper.calls, sleeper.cancelled), ("future", 3, 0));
    assert_eq!(sleeper.polls, 6, "one pending poll on the sleep, one ready poll, per call");
    assert!(sleeper.wall.percentiles_ns.0.iter().all(|(_, v)| *v >= 5_000_000), "{:?}", sleeper.wall);
    assert!(sleeper.busy_ns < sleeper.wall.total_ns, "waiting is not busy");
    let measured = find("futures_streams::measured_fn");
    assert_eq!((measured.kind.as_str(), measured.calls), ("async_fn", 3));
    let ready = find("ready");
    assert_eq!((ready.calls, ready.polls, ready.cancelled), (1, 1, 0));
    let abandoned = find("abandoned");
    assert_eq!((abandoned.calls, abandoned.cancelled), (0, 2));
    assert_eq!(abandoned.wall.count, 0);
    // future! sites stay out of the functions section; async functions are in both.
    let functions = report.functions_timing.unwrap().rows;
    assert!(functions.iter().all(|r| r.name != "sleeper"));
    assert!(functions.iter().any(|r| r.name == "futures_streams::measured_fn"));
}

#[test]
fn stream_instances_items_and_intervals() {
    common::session();
    runtime().block_on(async {
        // One site: every stream made here shares the "ticks" row.
        let wrapped = |n| hotpath::stream!(ticks(n), label = "ticks");
        for n in [3, 5] {
            let mut s = wrapped(n);
            while next(&mut s).await.is_some() {}
        }
        let mut early = wrapped(100);
        assert_eq!(next(&mut early).await, Some(0));
        drop(early); // dropped before the end
        let _unpolled = wrapped(1);
        let mut slow = hotpath::stream!(
            futures_stream(vec![Duration::from_millis(20), Duration::from_millis(20)]),
            label = "slow"
        );
        while next(&mut slow).await.is_some() {}
    });
    let report = common::report();
    let rows = report.streams.unwrap().rows;
    let ticks = rows.iter().find(|r| r.name == "ticks").unwrap();
    assert_eq!(ticks.item_type, "u32");
    assert_eq!((ticks.instances, ticks.completed, ticks.cancelled, ticks.active), (4, 2, 1, 0));
    assert_eq!(ticks.items, 3 + 5 + 1);
    assert_eq!(ticks.item_interval.count, 3, "one window per stream (each under 32 items)");
    let slow = rows.iter().find(|r| r.name == "slow").unwrap();
    assert_eq!((slow.items, slow.completed, slow.item_interval.count), (2, 1, 1));
    assert!(slow.item_interval.percentiles_ns.0.iter().all(|(_, v)| *v >= 20_000_000), "{:?}", slow.item_interval);
    assert!(slow.lifetime_ns >= 40_000_000);
    assert!(slow.items_per_sec > 0.0 && slow.items_per_sec <= 50.0, "{}", slow.items_per_sec);
}

/// A stream that sleeps the given durations, yielding after each.
fn futures_stream(delays: Vec<Duration>) -> impl Stream<Item = ()> {
    struct Sleeps {
        delays: std::vec::IntoIter<Duration>,
        current: Option<Pin<Box<tokio::time::Sleep>>>,
    }
    impl Stream for Sleeps {
        type Item = ();
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<()>> {
            if self.current.is_none() {
                match self.delays.next() {
                    Some(d) => self.current = Some(Box::pin(tokio::time::sleep(d))),
                    None => return Poll::Ready(None),
                }
            }
            let sleep = self.current.as_mut().unwrap();
            match sleep.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    self.current = None;
                    Poll::Ready(Some(()))
                }
                Poll::Pending => Poll::Pending,
            }
        }
    }
    Sleeps { delays: delays.into_iter(), current: None }
}

#[test]
fn long_streams_report_one_interval_per_window() {
    common::session();
    runtime().block_on(async {
        let mut s = hotpath::stream!(ticks(100), label = "windows");
        while next(&mut s).await.is_some() {}
    });
    let report = common::report();
    let row = report.streams.unwrap().rows.into_iter().find(|r| r.name == "windows").unwrap();
    assert_eq!(row.items, 100);
    assert_eq!(row.item_interval.count, 4, "windows of 32, 32, 32 and the last 4 items");
}
