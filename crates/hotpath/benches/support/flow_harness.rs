//! The async and concurrency modes of the harness (`flow`, `flow-cpu`, `flow-run`): one
//! operation of each kind, wrapped by the subject's macros or not. See `harness.rs`.

use std::future::Future;
use std::hint::black_box;
use std::pin::{pin, Pin};
use std::task::{Context, Poll, Waker};
use std::time::Instant;

/// Polls a future to completion on this thread.
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// Yields `0..n`; the stream every `stream` measurement drains.
struct Counter {
    next: u64,
    n: u64,
}

impl futures_core::Stream for Counter {
    type Item = u64;
    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<u64>> {
        let next = self.next;
        self.next += 1;
        Poll::Ready((next < self.n).then_some(next))
    }
}

fn drain<S: futures_core::Stream<Item = u64>>(stream: S) -> u64 {
    let mut stream = pin!(stream);
    let mut cx = Context::from_waker(Waker::noop());
    let mut acc = 0u64;
    while let Poll::Ready(Some(v)) = stream.as_mut().poll_next(&mut cx) {
        acc = acc.wrapping_add(v);
    }
    acc
}

/// One async or concurrency operation, wrapped by the subject's macros or not: `n`
/// repetitions, returning a value that depends on all of them.
#[derive(Clone, Copy, Debug)]
pub(super) enum Op {
    Channel,
    Lock,
    Future,
    Stream,
    Gauge,
    Val,
}

pub(super) const OPS: [(Op, &str); 6] = [
    (Op::Channel, "channel"),
    (Op::Lock, "lock"),
    (Op::Future, "future"),
    (Op::Stream, "stream"),
    (Op::Gauge, "gauge"),
    (Op::Val, "val"),
];

#[inline(never)]
pub(super) fn run_op(op: Op, wrapped: bool, n: u64) -> u64 {
    let mut acc = 0u64;
    match (op, wrapped) {
        (Op::Channel, false) => {
            let (tx, rx) = std::sync::mpsc::channel::<u64>();
            for i in 0..n {
                tx.send(i).unwrap();
                acc = acc.wrapping_add(rx.recv().unwrap());
            }
        }
        (Op::Channel, true) => {
            let (tx, rx) = hotpath::channel!(std::sync::mpsc::channel::<u64>(), label = "bench-channel");
            for i in 0..n {
                tx.send(i).unwrap();
                acc = acc.wrapping_add(rx.recv().unwrap());
            }
        }
        (Op::Lock, false) => {
            let m = std::sync::Mutex::new(0u64);
            for i in 0..n {
                *m.lock().unwrap() += black_box(i);
            }
            acc = *m.lock().unwrap();
        }
        (Op::Lock, true) => {
            let m = hotpath::mutex!(std::sync::Mutex::new(0u64), label = "bench-mutex");
            for i in 0..n {
                *m.lock().unwrap() += black_box(i);
            }
            acc = *m.lock().unwrap();
        }
        (Op::Future, false) => {
            for i in 0..n {
                acc = acc.wrapping_add(block_on(async { black_box(i) }));
            }
        }
        (Op::Future, true) => {
            for i in 0..n {
                acc = acc.wrapping_add(block_on(hotpath::future!(async { black_box(i) }, label = "bench-future")));
            }
        }
        (Op::Stream, false) => acc = drain(Counter { next: 0, n }),
        (Op::Stream, true) => acc = drain(hotpath::stream!(Counter { next: 0, n }, label = "bench-stream")),
        (Op::Gauge, false) => {
            let mut value = 0.0f64;
            for i in 0..n {
                value = black_box(i as f64);
            }
            acc = value as u64;
        }
        (Op::Gauge, true) => {
            for i in 0..n {
                hotpath::gauge!("bench-gauge").set(black_box(i));
            }
            acc = n;
        }
        (Op::Val, false) => {
            for i in 0..n {
                acc = acc.wrapping_add(*black_box(&i));
            }
        }
        (Op::Val, true) => {
            for i in 0..n {
                hotpath::val!("bench-val").set(black_box(&i));
                acc = acc.wrapping_add(i);
            }
        }
    }
    acc
}

/// Best of seven rounds of `n` operations, in nanoseconds per operation.
pub(super) fn per_op(op: Op, wrapped: bool, n: u64) -> f64 {
    (0..7)
        .map(|_| {
            let start = Instant::now();
            black_box(run_op(op, wrapped, n));
            start.elapsed().as_nanos() as f64 / n as f64
        })
        .fold(f64::INFINITY, f64::min)
}
