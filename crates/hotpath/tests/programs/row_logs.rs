//! `log = true` on every kind that takes it, in a real process, for tests/row_logs.rs:
//! a measured function, a measured future, `future!`, `channel!` and `stream!`, each
//! logging `ROUNDS` values. Modes (first argument): `report` (once, then the report),
//! `live SECONDS` (the same, then the function and the channel every 10 ms until the
//! time is up, for the live endpoints and the console).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

const ROUNDS: u64 = 60;

#[hotpath::measure(log = true)]
fn parse(i: u64) -> Result<u64, String> {
    if i % 2 == 0 {
        Ok(i)
    } else {
        Err(format!("odd {i}"))
    }
}

#[hotpath::future_fn(log = true)]
async fn fetch(i: u64) -> u64 {
    i * 10
}

/// A stream of `start..end` that never waits.
struct Count(u64, u64);

impl futures_core::Stream for Count {
    type Item = u64;
    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<u64>> {
        let next = (self.0 < self.1).then_some(self.0);
        self.0 += 1;
        Poll::Ready(next)
    }
}

/// Polls a future that never waits to completion.
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(std::task::Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// Items of a stream that never waits.
fn count<S: futures_core::Stream + Unpin>(mut s: S) -> u64 {
    let mut cx = Context::from_waker(std::task::Waker::noop());
    let mut seen = 0;
    while let Poll::Ready(Some(_)) = Pin::new(&mut s).poll_next(&mut cx) {
        seen += 1;
    }
    seen
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    session(seconds);
}

#[hotpath::main]
fn session(seconds: u64) {
    let (tx, rx) = hotpath::channel!(std::sync::mpsc::channel::<(u64, &'static str)>(), label = "jobs", log = true);
    for i in 0..ROUNDS {
        let _ = parse(i);
        assert_eq!(block_on(fetch(i)), i * 10);
        assert_eq!(block_on(hotpath::future!(std::future::ready(i + 1), label = "ready", log = true)), i + 1);
        tx.send((i, "job")).expect("sent");
        assert_eq!(rx.recv().expect("received").0, i);
    }
    let items = hotpath::stream!(Count(0, ROUNDS), label = "counter", log = true);
    assert_eq!(count(items), ROUNDS);
    println!("values ok");
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut i = ROUNDS;
    while Instant::now() < end {
        let _ = parse(i);
        tx.send((i, "tick")).expect("sent");
        let _ = rx.recv();
        i += 1;
        std::thread::sleep(Duration::from_millis(10));
    }
}
