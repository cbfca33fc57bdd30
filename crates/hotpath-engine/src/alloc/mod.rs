//! Allocation profiling (`alloc` feature): a counting global allocator and the
//! `functions-alloc` section.
//!
//! - `allocator`: [`CountingAllocator`], wrapping `System` or the user's allocator.
//! - `cell`: per-site, per-thread bytes and counts per call, beside the timing cell.
//! - `counters`: per-thread cumulative counters in a static slot table. The allocator
//!   only bumps its thread's slot; measured frames read their thread's counters at
//!   entry and exit (like the clock), so attribution costs the allocator nothing.
//! - `section`: the `functions-alloc` report section.

mod allocator;
mod cell;
pub(crate) mod counters;
mod section;

pub use allocator::CountingAllocator;
pub(crate) use cell::{inclusive, set_inclusive, AllocCell, AllocTotals};
pub(crate) use section::section;
