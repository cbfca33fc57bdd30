//! Per-function allocation attribution (exclusive mode, the default): exact bytes
//! and counts per call, nested calls, a first call (profiler's own allocations
//! excluded), recursion far deeper than any fixed stack, and an async call whose
//! polls run on two different threads, and a thread's first `io!` operation.
#![cfg(feature = "hotpath-alloc")]

use std::alloc::System;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use hotpath::__private::{snapshot, CountingAllocator, MainConfig, MainGuard};
use hotpath_model::FunctionAlloc;

#[global_allocator]
static ALLOCATOR: CountingAllocator<System> = CountingAllocator::new(System);

#[hotpath::measure]
fn leaf() -> Vec<u8> {
    vec![1u8; 1000]
}

#[hotpath::measure]
fn parent() -> usize {
    let own = vec![0u8; 500];
    own.len() + leaf().len()
}

#[hotpath::measure]
fn called_once() -> Box<u64> {
    Box::new(7)
}

#[hotpath::measure]
fn deep(n: u32) -> u64 {
    let level = Box::new(u64::from(n));
    if n == 0 {
        *level
    } else {
        *level + deep(n - 1)
    }
}

/// The first `io!` operation of a thread creates that thread's I/O recorder: the
/// profiler's allocation, not the function's.
#[hotpath::measure]
fn first_io_of_a_thread() -> usize {
    use std::io::Write;
    let mut sink = hotpath::io!(std::io::sink(), label = "alloc-free sink");
    sink.write(&[1, 2, 3]).unwrap_or(0)
}

/// Pending once, then ready; allocates nothing.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if std::mem::replace(&mut self.0, true) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

#[hotpath::measure]
async fn split_across_polls() -> usize {
    let first = vec![0u8; 300];
    YieldOnce(false).await;
    let second = vec![0u8; 700];
    first.len() + second.len()
}

fn find(rows: &[FunctionAlloc], name: &str) -> FunctionAlloc {
    rows.iter().find(|r| r.name == format!("alloc_functions::{name}")).unwrap_or_else(|| panic!("{name}")).clone()
}

fn exact(row: &FunctionAlloc, calls: u64, bytes_per_call: u64, allocs_per_call: u64) {
    assert_eq!(row.calls, calls, "{row:?}");
    assert_eq!((row.bytes_total, row.allocs_total), (calls * bytes_per_call, calls * allocs_per_call), "{row:?}");
    assert_eq!((row.bytes_avg, row.allocs_avg), (bytes_per_call, allocs_per_call), "{row:?}");
    assert_eq!(row.bytes_percentiles.get(50.0), Some(bytes_per_call), "{row:?}");
    assert_eq!(row.allocs_percentiles.get(99.0), Some(allocs_per_call), "{row:?}");
}

#[test]
fn allocations_per_call() {
    let _session = MainGuard::start(MainConfig::new("alloc_functions::test").format("none").limit(0));
    for _ in 0..10 {
        drop(leaf());
        parent();
    }
    drop(called_once());
    let depth = 20_000;
    let deep_result = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || deep(depth))
        .unwrap()
        .join()
        .expect("deep recursion must not panic");
    assert_eq!(deep_result, u64::from(depth) * u64::from(depth + 1) / 2);

    // One call, polled once on each of two threads.
    let mut call = Box::pin(split_across_polls());
    let first = std::thread::spawn(move || {
        assert!(call.as_mut().poll(&mut Context::from_waker(Waker::noop())).is_pending());
        call
    });
    let mut call = first.join().unwrap();
    let second = std::thread::spawn(move || call.as_mut().poll(&mut Context::from_waker(Waker::noop())));
    assert_eq!(second.join().unwrap(), Poll::Ready(1000));
    assert_eq!(std::thread::spawn(first_io_of_a_thread).join().unwrap(), 3);

    let section = snapshot().unwrap().functions_alloc.expect("functions_alloc section");
    assert_eq!(section.mode, "exclusive");
    let rows = &section.rows;
    exact(&find(rows, "leaf"), 20, 1000, 1);
    exact(&find(rows, "parent"), 10, 500, 1);
    exact(&find(rows, "called_once"), 1, 8, 1);
    exact(&find(rows, "deep"), u64::from(depth) + 1, 8, 1);
    exact(&find(rows, "split_across_polls"), 1, 1000, 2);
    exact(&find(rows, "first_io_of_a_thread"), 1, 0, 0);
    assert!(section.process_alloc_bytes >= 20 * 1000 + 10 * 500);
    assert!(rows.windows(2).all(|w| w[0].bytes_total >= w[1].bytes_total), "sorted by bytes");
}
