//! After warm-up, measured calls allocate nothing: sync, async and blocks.
//!
//! The only allocation a warm call can make is a histogram octave (64 counters), the
//! first time one of its durations lands in a power-of-two range not seen before on
//! that thread: at most 59 per site and thread, ever, however many calls follow.
#![cfg(feature = "hotpath")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use hotpath::__private::{profiler_bytes, snapshot, MainConfig, MainGuard};

/// Size of one lazily allocated histogram octave: 64 `u64` counters.
const OCTAVE_BYTES: usize = 64 * 8;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator, only adding a thread-local count.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

#[hotpath::measure]
fn leaf(x: u64) -> u64 {
    std::hint::black_box(x + 1)
}

#[hotpath::measure]
fn branch(x: u64) -> u64 {
    leaf(x) + leaf(x * 2)
}

#[hotpath::measure]
async fn ready_async(x: u64) -> u64 {
    leaf(x)
}

fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

fn workload(n: u64) -> u64 {
    let mut acc = 0;
    for i in 0..n {
        acc += branch(i);
        acc += block_on(ready_async(i));
        acc += hotpath::measure_block!("block", leaf(i));
    }
    acc
}

#[test]
fn no_allocation_per_call_after_warm_up() {
    let _session = MainGuard::start(MainConfig::new("zero_alloc::test").format("none"));
    // Warm-up: registers the sites, creates this thread's cells and the histogram
    // octaves the values fall into.
    workload(10_000);
    let (before, bytes_before) = (allocations(), profiler_bytes());
    let acc = workload(100_000);
    let during = allocations() - before;
    let octaves = (profiler_bytes() - bytes_before) / OCTAVE_BYTES;
    std::hint::black_box(acc);
    // Every allocation was a new octave for an outlier duration (none in most runs).
    assert_eq!(during as usize, octaves, "{during} allocations but {octaves} new octaves in 500,000 calls");
    assert!(octaves <= 4 * 59);
    let rows = snapshot().unwrap().functions_timing.unwrap().rows;
    assert_eq!(rows.iter().find(|r| r.name == "zero_alloc::leaf").unwrap().calls, 440_000);
}
