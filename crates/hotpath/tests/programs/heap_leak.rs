//! Leaks 20,000 blocks of 1 KiB from one call site (`leak_site`), in the middle of a
//! million allocations from two other sites that are all freed again (`churn_small`,
//! `churn_vecs`). The heap section must name `leak_site` and its line, with the true
//! 20,480,000 bytes inside its interval, and show nothing live for the churn sites.

use std::hint::black_box;

pub const LEAKS: usize = 20_000;

#[inline(never)]
fn leak_site() -> &'static mut [u8; 1024] {
    Box::leak(Box::new([7u8; 1024])) // LEAK LINE
}

#[inline(never)]
fn churn_small(i: usize) {
    let b = black_box(Box::new([i as u8; 48]));
    drop(b);
}

#[inline(never)]
fn churn_vecs(i: usize) -> usize {
    let mut v: Vec<u64> = Vec::with_capacity(16 + i % 512);
    v.push(i as u64);
    v.extend_from_slice(&[1, 2, 3]);
    black_box(&v).len()
}

/// One round of churn, and a leak every 25th: the measured function that holds the leak.
#[hotpath::measure]
#[inline(never)]
fn round(i: usize) -> usize {
    churn_small(i);
    let kept = churn_vecs(i);
    if i % 25 == 0 {
        black_box(leak_site());
    }
    kept
}

#[hotpath::main]
fn main() {
    let mut kept = 0usize;
    for i in 0..500_000 {
        kept += round(i);
    }
    black_box(kept);
}
