//! The overhead budget's proof program (`tests/overhead_budget.rs`), in two modes:
//!
//! - `split N [ITERS]`: N calls of `parent`, which does 2 work units itself and calls `heavy`
//!   (3 calls of `unit`, one work unit each) and `light` (1 call of `unit`). Every
//!   work unit is the same loop, so the true split is known from the counts alone:
//!   heavy : light = 3 : 1, and parent's self time is 2/6 of its total.
//! - `tiny N`: N calls of `tiny`, a function of about 10 ns (each call's input is the
//!   last one's result).
//! - `recursive N [ITERS]`: N calls of `climb`, which calls `descend` once; `descend`
//!   does one work unit and goes [`LEVELS`] levels down, directly (`descend`) or
//!   through `hop` every third level (recursion through another function). So
//!   `descend`'s total (its outermost calls) is `climb`'s total but for `climb`'s own
//!   few instructions, and `descend`'s calls are `LEVELS × N`.
//! - `instruments N [ITERS]`: N rounds of the other timed instruments, each hot: a
//!   `mutex!` held for 3 work units and one for 1, a message through a `channel!`, a
//!   byte written to an `io!` sink, and a `future!` of 3 units and one of 1 (polled
//!   to completion on this thread).
//!
//! The budget comes from `HOTPATH_OVERHEAD_BUDGET`; the report is JSON on stdout.

use std::future::Future;
use std::hint::black_box;
use std::io::Write;
use std::task::{Context, Poll, Waker};

/// Iterations of one work unit by default (about 2 µs in a release build); the third
/// argument of `split` sets it.
const UNIT: u32 = 1200;

static UNIT_ITERS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(UNIT);

#[inline(never)]
fn work(units: u32) -> u64 {
    let mut x = black_box(0x9E37_79B9_7F4A_7C15u64);
    for _ in 0..units * UNIT_ITERS.load(std::sync::atomic::Ordering::Relaxed) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    black_box(x)
}

#[hotpath::measure]
fn unit() -> u64 {
    work(1)
}

#[hotpath::measure]
fn heavy() -> u64 {
    unit() ^ unit() ^ unit()
}

#[hotpath::measure]
fn light() -> u64 {
    unit()
}

#[hotpath::measure]
fn parent() -> u64 {
    work(2) ^ heavy() ^ light()
}

/// Levels of `descend` under one `climb`.
const LEVELS: u32 = 16;

#[hotpath::measure]
fn climb() -> u64 {
    descend(LEVELS)
}

#[hotpath::measure]
fn descend(level: u32) -> u64 {
    let x = work(1);
    match level {
        1 => x,
        l if l % 3 == 0 => x ^ hop(l - 1),
        l => x ^ descend(l - 1),
    }
}

#[hotpath::measure]
fn hop(level: u32) -> u64 {
    descend(level)
}

#[hotpath::measure]
fn tiny(x: u64) -> u64 {
    // About 10 ns: a short dependent chain the optimizer cannot fold.
    let mut y = black_box(x);
    for _ in 0..8 {
        y = y.wrapping_mul(0x2545_F491_4F6C_DD1D).rotate_left(7);
    }
    y
}

#[hotpath::measure]
fn cold(x: u64) -> u64 {
    work(1) ^ x
}

/// Polls `f` on this thread until it is ready.
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

fn instruments(n: u64) -> u64 {
    let heavy = hotpath::mutex!(std::sync::Mutex::new(0u64), label = "heavy_lock");
    let light = hotpath::mutex!(std::sync::Mutex::new(0u64), label = "light_lock");
    let (tx, rx) = hotpath::channel!(std::sync::mpsc::channel::<u64>(), label = "pipe");
    let mut sink = hotpath::io!(std::io::sink(), label = "sink");
    let mut acc = 0;
    for i in 0..n {
        *heavy.lock().unwrap() ^= work(3);
        *light.lock().unwrap() ^= work(1);
        tx.send(i).unwrap();
        acc ^= rx.recv().unwrap();
        sink.write_all(&[i as u8]).unwrap();
        acc ^= block_on(hotpath::future!(async { work(3) }, label = "heavy_future"));
        acc ^= block_on(hotpath::future!(async { work(1) }, label = "light_future"));
    }
    acc
}

#[hotpath::main(format = "json")]
fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let n: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
    if let Some(iters) = args.next().and_then(|n| n.parse().ok()) {
        UNIT_ITERS.store(iters, std::sync::atomic::Ordering::Relaxed);
    }
    let mut acc = 0u64;
    match mode.as_str() {
        "split" => (0..n).for_each(|_| acc ^= parent()),
        // Each call's input depends on the last one's result: otherwise the calls'
        // chains overlap in the core and one takes under 2 ns, not 10.
        "tiny" => (0..n).for_each(|i| acc = tiny(acc ^ i)),
        "recursive" => (0..n).for_each(|_| acc ^= climb()),
        "instruments" => acc = instruments(n),
        // A mostly idle program: one call every 10 ms.
        "cold" => (0..n).for_each(|i| {
            acc ^= cold(i);
            std::thread::sleep(std::time::Duration::from_millis(10));
        }),
        other => panic!("unknown mode {other:?}: split N, tiny N, recursive N, instruments N or cold N"),
    }
    black_box(acc);
}
