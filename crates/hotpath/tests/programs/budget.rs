//! The overhead budget's proof program (`tests/overhead_budget.rs`), in two modes:
//!
//! - `split N [ITERS]`: N calls of `parent`, which does 2 work units itself and calls `heavy`
//!   (3 calls of `unit`, one work unit each) and `light` (1 call of `unit`). Every
//!   work unit is the same loop, so the true split is known from the counts alone:
//!   heavy : light = 3 : 1, and parent's self time is 2/6 of its total.
//! - `tiny N`: N calls of `tiny`, a function of about 10 ns (each call's input is the
//!   last one's result).
//!
//! The budget comes from `HOTPATH_OVERHEAD_BUDGET`; the report is JSON on stdout.

use std::hint::black_box;

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

#[hotpath::measure]
fn tiny(x: u64) -> u64 {
    // About 10 ns: a short dependent chain the optimizer cannot fold.
    let mut y = black_box(x);
    for _ in 0..8 {
        y = y.wrapping_mul(0x2545_F491_4F6C_DD1D).rotate_left(7);
    }
    y
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
        other => panic!("unknown mode {other:?}: split N or tiny N"),
    }
    black_box(acc);
}
