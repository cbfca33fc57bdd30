//! Something in every section, for the MCP tests: a Tokio service loop that
//! awaits a measured async fn through `future!`, hands results to a consumer
//! over a `channel!`, updates `mutex!` and `rw_lock!` values, drains a
//! `stream!`, writes through `io!`, sets `val!` and `gauge!` trackers, and calls
//! measured sync functions, until the
//! number of seconds given as the first argument (default 30) has passed.

use std::io::Write;
use std::pin::Pin;
use std::sync::{Arc, Mutex, RwLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// A stream of `n` numbers.
struct Count(u32, u32);

impl futures_core::Stream for Count {
    type Item = u32;
    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<u32>> {
        self.0 += 1;
        Poll::Ready((self.0 <= self.1).then_some(self.0))
    }
}

#[hotpath::measure(log = true)]
fn parse(line: &str) -> usize {
    line.split(',').map(str::len).sum()
}

#[hotpath::measure]
fn encode(i: u64) -> Vec<u8> {
    format!("{i},alpha,beta,{}", i * 7).into_bytes()
}

#[hotpath::measure]
async fn fetch(i: u64) -> u64 {
    tokio::time::sleep(Duration::from_millis(1)).await;
    i * 2
}

#[hotpath::main]
#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    hotpath::tokio_runtime!();
    let seconds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(30);
    let end = Instant::now() + Duration::from_secs(seconds);
    let (tx, mut rx) = hotpath::channel!(tokio::sync::mpsc::channel::<u64>(8), label = "results");
    let totals = Arc::new(hotpath::mutex!(Mutex::new(0u64), label = "totals"));
    let scale = Arc::new(hotpath::rw_lock!(RwLock::new(1u64), label = "scale"));
    let consumer = {
        let totals = Arc::clone(&totals);
        tokio::spawn(async move {
            while let Some(v) = rx.recv().await {
                *totals.lock().unwrap() += v;
            }
        })
    };
    let mut log = hotpath::io!(std::io::sink(), label = "log");
    let mut i = 0;
    while Instant::now() < end {
        let fetched = hotpath::future!(fetch(i), label = "fetch").await;
        hotpath::val!("last-fetch").set(&fetched);
        hotpath::gauge!("round").set(i % 8);
        let factor = *scale.read().unwrap();
        if tx.send(fetched * factor).await.is_err() {
            break;
        }
        let line = encode(i);
        std::hint::black_box(parse(std::str::from_utf8(&line).unwrap_or_default()));
        let _ = log.write_all(&line);
        let mut numbers = hotpath::stream!(Count(0, 3), label = "numbers");
        while std::future::poll_fn(|cx| futures_core::Stream::poll_next(Pin::new(&mut numbers), cx)).await.is_some() {}
        if i % 100 == 0 {
            *scale.write().unwrap() += 1;
        }
        i += 1;
    }
    drop(tx);
    let _ = consumer.await;
    println!("{} rounds, total {}", i, *totals.lock().unwrap());
}
