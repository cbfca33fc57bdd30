//! Allocation profiling of a program that brings its own global allocator.
//!
//! Without `hotpath-alloc` the program installs its allocator as usual. With it,
//! `#[hotpath::main(allocator = Audited)]` installs hotpath's counting allocator
//! wrapped around `Audited`, so every request still reaches the program's allocator.
//!
//! cargo run -p hotpath --example custom_allocator --features hotpath-alloc

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The program's own allocator: forwards to `System` and counts what it serves.
struct Audited;

static SERVED: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged.
unsafe impl GlobalAlloc for Audited {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        SERVED.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout (the caller's contract).
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[cfg_attr(not(feature = "hotpath-alloc"), global_allocator)]
#[cfg_attr(feature = "hotpath-alloc", allow(dead_code))]
static GLOBAL: Audited = Audited;

#[hotpath::measure]
fn build_index(words: usize) -> Vec<String> {
    (0..words).map(|i| format!("word-{i}")).collect()
}

#[hotpath::measure]
fn longest(index: &[String]) -> usize {
    index.iter().map(String::len).max().unwrap_or(0)
}

#[hotpath::main(allocator = Audited)]
fn main() {
    let index = build_index(10_000);
    println!("longest word: {} bytes", longest(&index));
    println!("custom allocator served {} allocations", SERVED.load(Ordering::Relaxed));
}
