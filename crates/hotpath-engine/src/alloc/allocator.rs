//! The counting global allocator installed by `#[hotpath::main]` with `hotpath-alloc`.

use std::alloc::{GlobalAlloc, Layout, System};

use super::counters;

/// Forwards every request to `A` and counts it for the calling thread.
///
/// It never allocates, locks or recurses: counting is a few plain stores into the
/// thread's slot (claimed once per thread without allocating). Allocations made by
/// the profiler itself are not counted.
pub struct CountingAllocator<A = System> {
    inner: A,
}

impl<A> CountingAllocator<A> {
    /// Wraps `inner`, e.g. `CountingAllocator::new(std::alloc::System)`.
    pub const fn new(inner: A) -> Self {
        Self { inner }
    }
}

// SAFETY: every method forwards to `A`'s implementation with the same arguments and
// returns its result unchanged; counting has no effect on the memory handed out.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAllocator<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { self.inner.alloc(layout) };
        if !ptr.is_null() {
            counters::allocated(layout.size());
        }
        ptr
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { self.inner.alloc_zeroed(layout) };
        if !ptr.is_null() {
            counters::allocated(layout.size());
        }
        ptr
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { self.inner.dealloc(ptr, layout) };
        counters::freed(layout.size());
    }

    /// Counted as freeing the old block and allocating the new one.
    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = unsafe { self.inner.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            counters::freed(layout.size());
            counters::allocated(new_size);
        }
        new
    }
}
