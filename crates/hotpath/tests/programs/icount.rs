//! A deterministic workload for the instruction-count tests (`hotpath-callgrind`, run
//! under `valgrind --tool=callgrind`): nested measured calls, one reached through an
//! unmeasured helper, recursion, a generic, methods with borrowed and `impl Trait`
//! returns, `?`, an async function polled twice per call, and two blocks, one of
//! which returns early and so cannot be counted. Tiny on purpose: Callgrind runs it
//! about fifty times slower than natively.

use std::future::Future;
use std::hint::black_box;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

#[hotpath::measure]
fn leaf(n: u64) -> u64 {
    (0..n).fold(0, |acc, i| black_box(acc ^ i.wrapping_mul(31)))
}

/// Not measured: the leaf call inside it belongs to `parent`'s nested calls.
#[inline(never)]
fn helper(n: u64) -> u64 {
    leaf(n / 4) + black_box(n)
}

#[hotpath::measure]
fn parent(n: u64) -> u64 {
    leaf(n) + helper(n) + (0..n).map(black_box).sum::<u64>()
}

#[hotpath::measure]
fn recursive(depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    recursive(depth - 1) + black_box(u64::from(depth))
}

#[hotpath::measure]
fn generic<T: Into<u64> + Copy>(x: T) -> u64 {
    (0..x.into()).map(|i| black_box(i * 3)).sum()
}

#[hotpath::measure]
fn parse_first(text: &str) -> Result<u64, std::num::ParseIntError> {
    let first = text.split(',').next().unwrap_or("");
    Ok(first.trim().parse::<u64>()? * 2)
}

struct Worker {
    items: Vec<u64>,
}

#[hotpath::measure_all]
impl Worker {
    fn first_mut(&mut self) -> &mut u64 {
        &mut self.items[0]
    }

    fn evens(&self) -> impl Iterator<Item = &u64> + '_ {
        self.items.iter().filter(|x| *x % 2 == 0)
    }
}

/// Pending once, then ready: every `work_async` call takes two polls.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[hotpath::measure]
async fn work_async(n: u64) -> u64 {
    let before = generic(n as u32);
    YieldOnce(false).await;
    before + generic(n as u32)
}

fn block_on<F: Future>(fut: F) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

fn early(values: &[u64]) -> u64 {
    hotpath::measure_block!("early_exit", {
        for &v in values {
            if v > 2 {
                return v;
            }
        }
        0
    })
}

#[hotpath::main]
fn main() {
    let mut total = 0u64;
    for i in 0..10 {
        total = total.wrapping_add(parent(200 + i));
    }
    total += recursive(5);
    total += generic(100u8) + generic(50u32);
    total += parse_first("21, 4").unwrap_or(0) + parse_first("x").unwrap_or(0);
    let mut worker = Worker { items: (0..20).collect() };
    *worker.first_mut() += 1;
    total += worker.evens().sum::<u64>();
    for n in [10, 20, 30] {
        total += block_on(work_async(n));
    }
    total += hotpath::measure_block!("counted_block", leaf(64) + 1);
    total += early(&[1, 5]);
    println!("total {total}");
}
