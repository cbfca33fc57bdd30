//! After warm-up, measured calls allocate nothing: sync, async and blocks, and neither do
//! wrapped channel sends and receives, lock acquisitions, `future!` polls and `stream!`
//! items.
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
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout (the caller's contract).
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

/// Wrapped values made once; the workload only uses them.
struct Flow {
    tx: hotpath::wrap::std::sync::mpsc::SyncSender<u64>,
    rx: hotpath::wrap::std::sync::mpsc::Receiver<u64>,
    lock: hotpath::wrap::std::sync::Mutex<u64>,
}

struct Count(u64);

impl futures_core::Stream for Count {
    type Item = u64;
    fn poll_next(mut self: std::pin::Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<u64>> {
        self.0 = self.0.saturating_sub(1);
        Poll::Ready((self.0 > 0).then_some(self.0))
    }
}

fn workload(n: u64, flow: &Flow) -> u64 {
    let mut acc = 0;
    for i in 0..n {
        acc += branch(i);
        acc += block_on(ready_async(i));
        acc += hotpath::measure_block!("block", leaf(i));
        // A bounded std channel stores messages in a preallocated array.
        flow.tx.send(i).unwrap();
        acc += flow.rx.recv().unwrap();
        *flow.lock.lock().unwrap() += 1;
        acc += block_on(hotpath::future!(async { i }, label = "ready"));
    }
    let mut items = std::pin::pin!(hotpath::stream!(Count(n), label = "items"));
    let mut cx = Context::from_waker(Waker::noop());
    while let Poll::Ready(Some(v)) = futures_core::Stream::poll_next(items.as_mut(), &mut cx) {
        acc += v;
    }
    acc
}

#[test]
fn no_allocation_per_call_after_warm_up() {
    let _session = MainGuard::start(MainConfig::new("zero_alloc::test").format("none"));
    let (tx, rx) = hotpath::channel!(std::sync::mpsc::sync_channel::<u64>(4), label = "pairs");
    let flow = Flow { tx, rx, lock: hotpath::mutex!(std::sync::Mutex::new(0u64), label = "lock") };
    // Warm-up: registers the sites, creates this thread's cells and the histogram
    // octaves the values fall into.
    workload(10_000, &flow);
    let (before, bytes_before) = (allocations(), profiler_bytes());
    let acc = workload(100_000, &flow);
    let during = allocations() - before;
    let octaves = (profiler_bytes() - bytes_before) / OCTAVE_BYTES;
    std::hint::black_box(acc);
    // Every allocation was a new octave for an outlier duration (none in most runs).
    assert_eq!(during as usize, octaves, "{during} allocations but {octaves} new octaves in 900,000 operations");
    assert!(octaves <= 9 * 59);
    let rows = snapshot().unwrap().functions_timing.unwrap().rows;
    assert_eq!(rows.iter().find(|r| r.name == "zero_alloc::leaf").unwrap().calls, 440_000);
}
