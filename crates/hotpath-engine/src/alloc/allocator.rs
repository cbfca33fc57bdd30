//! The counting global allocator installed by `#[hotpath::main]` with `hotpath-alloc`.

use std::alloc::{GlobalAlloc, Layout, System};

use crate::alloc_counters as counters;

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
        // SAFETY: the caller's contract for `alloc` is `A::alloc`'s.
        let ptr = unsafe { self.inner.alloc(layout) };
        if !ptr.is_null() {
            counters::allocated(layout.size());
            #[cfg(all(feature = "heap", target_os = "linux"))]
            crate::heap::allocated(ptr, layout.size());
        }
        ptr
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc_zeroed` is `A::alloc_zeroed`'s.
        let ptr = unsafe { self.inner.alloc_zeroed(layout) };
        if !ptr.is_null() {
            counters::allocated(layout.size());
            #[cfg(all(feature = "heap", target_os = "linux"))]
            crate::heap::allocated(ptr, layout.size());
        }
        ptr
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // The sample leaves the table before the block can be handed out again.
        #[cfg(all(feature = "heap", target_os = "linux"))]
        crate::heap::freed(ptr);
        // SAFETY: `ptr` came from this allocator, that is from `A`, with `layout`.
        unsafe { self.inner.dealloc(ptr, layout) };
        counters::freed(layout.size());
    }

    /// Counted as freeing the old block and allocating the new one.
    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        #[cfg(all(feature = "heap", target_os = "linux"))]
        let kept = crate::heap::realloc_take(ptr);
        // SAFETY: `ptr` came from `A` with `layout`; the caller's contract is `A::realloc`'s.
        let new = unsafe { self.inner.realloc(ptr, layout, new_size) };
        #[cfg(all(feature = "heap", target_os = "linux"))]
        crate::heap::realloc_done(ptr, new, layout.size(), new_size, kept);
        if !new.is_null() {
            counters::freed(layout.size());
            counters::allocated(new_size);
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwards_every_request_and_counts_it() {
        let allocator = CountingAllocator::new(System);
        std::thread::spawn(move || {
            let layout = Layout::from_size_align(24, 8).unwrap();
            // SAFETY: a non-zero-size layout; each block is freed once, with the layout
            // (and size) it was allocated or reallocated with.
            unsafe {
                let a = allocator.alloc(layout);
                let z = allocator.alloc_zeroed(layout);
                assert!(!a.is_null() && !z.is_null());
                assert!(std::slice::from_raw_parts(z, 24).iter().all(|&b| b == 0));
                a.write_bytes(7, 24);
                let grown = allocator.realloc(a, layout, 100);
                assert_eq!(*grown.add(23), 7, "contents kept");
                allocator.dealloc(grown, Layout::from_size_align(100, 8).unwrap());
                allocator.dealloc(z, layout);
            }
            // Allocated 24 + 24 + 100 in 3 blocks; freed 24 (realloc) + 100 + 24.
            assert_eq!(counters::thread_allocated(), (148, 3));
        })
        .join()
        .unwrap();
    }

    /// With heap sampling on (every allocation sampled here), a sampled block is in
    /// the live table under its address, a realloc moves its sample to the new address
    /// and size, a failed one leaves it, and a free takes it out.
    #[cfg(all(feature = "heap", target_os = "linux"))]
    #[test]
    fn heap_samples_follow_realloc_and_free() {
        use crate::heap::testing::{sample_everything, size_at};
        sample_everything();
        let allocator = CountingAllocator::new(System);
        std::thread::spawn(move || {
            let layout = Layout::from_size_align(4096, 8).unwrap();
            // SAFETY: non-zero-size layouts; each block is freed once with the layout it
            // was (re)allocated with; the failed realloc asks for more than can exist.
            unsafe {
                let a = allocator.alloc(layout);
                assert_eq!(size_at(a as usize), Some(4096), "sampled");
                let failed = allocator.realloc(a, layout, isize::MAX as usize - 4096);
                assert!(failed.is_null());
                assert_eq!(size_at(a as usize), Some(4096), "a failed realloc keeps the sample");
                let b = allocator.realloc(a, layout, 1 << 20);
                assert_eq!(size_at(b as usize), Some(1 << 20), "moved, with its new size");
                if b != a {
                    assert_eq!(size_at(a as usize), None);
                }
                allocator.dealloc(b, Layout::from_size_align(1 << 20, 8).unwrap());
                assert_eq!(size_at(b as usize), None, "freed");
            }
        })
        .join()
        .unwrap();
    }
}
