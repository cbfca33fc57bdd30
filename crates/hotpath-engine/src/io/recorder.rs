//! Per-thread I/O cells, and the registry of live and exited threads' cells.
//!
//! The same mechanism as function recording (`record::Cells`, `record::Registry`),
//! with a registry of its own so that I/O entries have their own id space. Memory is
//! bounded by entries × live threads.

use std::cell::Cell;
use std::ptr;

use super::cell::{IoCell, IoTotals};
use crate::memory;
use crate::record::{self, Cells, Current, ExitHook, Recorder, Registry};

/// Entry ids are below this (32,768); an entry past it (beyond the caps of `entries`,
/// only with tens of thousands of call sites) is passed through and counted as dropped.
type IoCells = Cells<IoCell, 512>;

/// One thread's I/O cells. Written only by that thread.
struct IoRecorder {
    cells: IoCells,
}

impl IoRecorder {
    fn new() -> Self {
        memory::allocated(std::mem::size_of::<Self>());
        Self { cells: Cells::new() }
    }
}

impl Recorder for IoRecorder {
    type Cell = IoCell;
    fn for_each_cell(&self, f: impl FnMut(usize, &IoCell)) {
        self.cells.for_each(f);
    }
}

impl Drop for IoRecorder {
    fn drop(&mut self) {
        memory::freed(std::mem::size_of::<Self>());
    }
}

static REGISTRY: Registry<IoRecorder, IoTotals> = Registry::new();

thread_local! {
    static CURRENT: Current<IoRecorder> = const { Cell::new(ptr::null()) };
    static EXIT: ExitHook<IoRecorder, IoTotals> = const { ExitHook::new(&CURRENT, &REGISTRY) };
}

/// Runs `f` on this thread's cell for entry `id`; `None` while the thread is exiting
/// (or past the id space). The cell is lent for the call only: it is freed at thread exit.
#[inline(always)]
pub(crate) fn with_cell<O>(id: u32, f: impl FnOnce(&IoCell) -> O) -> Option<O> {
    record::with_recorder(
        &REGISTRY,
        &CURRENT,
        &EXIT,
        IoRecorder::new,
        #[inline(always)]
        |r| r.cells.get(id).map(f),
    )
    .flatten()
}

/// Zeroes every thread's numbers and forgets exited threads' (a new session).
pub(crate) fn reset() {
    REGISTRY.reset();
}

/// Each entry's operations of every kind on live threads, indexed by id (the overhead
/// budget's reading).
pub(crate) fn op_counts() -> Vec<u64> {
    REGISTRY.live_counts(|cell| (cell.ops(), 0)).into_iter().map(|(ops, _)| ops).collect()
}

/// Every entry's totals over live and exited threads, indexed by entry id.
pub(crate) fn collect() -> Vec<IoTotals> {
    REGISTRY.collect()
}
