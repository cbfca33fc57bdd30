//! Per-thread I/O cells, and the registry of live and exited threads' cells.
//!
//! The same mechanism as function recording (`thread::Cells`, `thread::Registry`),
//! with a registry of its own so that I/O entries (which `iter = true` can create
//! per instance) have their own id space. Memory is bounded by entries × live threads.

use std::cell::Cell;
use std::ptr;

use super::cell::{IoCell, IoTotals};
use crate::memory;
use crate::thread::{Cells, Current, ExitHook, Recorder, Registry};

type IoCells = Cells<IoCell, 512>;

/// Entry ids are below this; further entries are not created (see `site`).
pub(crate) const MAX_ENTRIES: usize = IoCells::CAPACITY;

/// One thread's I/O cells. Written only by that thread.
pub(crate) struct IoRecorder {
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

/// This thread's cell for entry `id`; `None` while the thread is exiting.
#[inline(always)]
pub(crate) fn cell(id: u32) -> Option<&'static IoCell> {
    let p = REGISTRY.current(&CURRENT, &EXIT, IoRecorder::new);
    // SAFETY: a non-null recorder stays valid on this thread until its exit hook
    // runs, and the returned cell is used before this call's caller returns.
    unsafe { p.as_ref() }.and_then(|r| r.cells.get(id))
}

/// Every entry's totals over live and exited threads, indexed by entry id.
pub(crate) fn collect() -> Vec<IoTotals> {
    REGISTRY.collect()
}
