//! 100,000 values wrapped at one `io!` site make one row, and the profiler's memory
//! stays flat: after warm-up neither creating an instance nor an operation allocates
//! (except a histogram octave the first time a duration lands in a new power-of-two
//! range: at most 59 per direction and thread, ever).
#![cfg(feature = "hotpath")]

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Read;

use hotpath::__private::profiler_bytes;

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
        // SAFETY: the caller's contract for `dealloc` is passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Wraps a fresh value at one site, as a server wraps each accepted connection,
/// and reads 16 bytes through it.
#[inline(never)]
fn wrap_and_read(i: u64) -> u8 {
    let mut source = hotpath::io!(std::io::repeat(i as u8).take(16), label = "per-connection");
    let mut buf = [0u8; 16];
    source.read_exact(&mut buf).unwrap();
    buf[15]
}

#[test]
fn hundred_thousand_instances_one_row_flat_memory() {
    common::session();
    for i in 0..1_000 {
        wrap_and_read(i);
    }
    let (allocs_before, bytes_before) = (allocations(), profiler_bytes());
    for i in 1_000..100_000 {
        std::hint::black_box(wrap_and_read(i));
    }
    let allocs = allocations() - allocs_before;
    let grown = profiler_bytes() - bytes_before;
    assert_eq!(grown % OCTAVE_BYTES, 0, "only histogram octaves may be added: {grown} bytes");
    assert_eq!(allocs as usize, grown / OCTAVE_BYTES, "{allocs} allocations for 99,000 instances and reads");
    assert!(grown <= 59 * OCTAVE_BYTES, "{grown} bytes more after 99,000 more instances");

    let report = hotpath::__private::snapshot().unwrap();
    let rows = report.io.unwrap().rows;
    assert_eq!(rows.len(), 1, "{rows:#?}");
    let row = &rows[0];
    assert_eq!((row.name.as_str(), row.instances), ("per-connection", 100_000));
    assert_eq!((row.read.ops, row.read.bytes), (100_000, 1_600_000));
    assert!(row.type_name.starts_with("std::io::Take<") && row.type_name.ends_with("Repeat>"), "{}", row.type_name);
}
