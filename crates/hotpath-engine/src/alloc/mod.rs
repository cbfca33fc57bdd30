//! Allocation profiling (`alloc` feature): a counting global allocator and the
//! `functions-alloc` section.
//!
//! - `allocator`: [`CountingAllocator`], wrapping `System` or the user's allocator; it
//!   only bumps its thread's slot of `crate::alloc_counters`. Measured frames read
//!   their thread's counters at entry and exit (like the clock, `record::usage`) and
//!   keep bytes and counts per call in their site's cell (`record::alloc_cell`), so
//!   attribution costs the allocator nothing.
//! - `section`: the `functions-alloc` report section.

mod allocator;
mod section;

pub use allocator::CountingAllocator;
pub(crate) use section::section;
