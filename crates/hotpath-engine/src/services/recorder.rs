//! Per-thread request cells and the registry of live and exited threads' cells: the
//! mechanism of function recording (`record::Cells`, `record::Registry`) with an id
//! space of its own, shared by the server, HTTP and SQL rows.

use std::cell::Cell;
use std::ptr;

use super::cell::{RequestCell, RequestTotals};
use crate::memory;
use crate::record::{self, Cells, Current, ExitHook, Recorder, Registry};

/// Row ids are below this (16,384); the three tables hold at most `MAX_ENTRIES_LIMIT` + 1
/// rows each, well below it.
type RequestCells = Cells<RequestCell, 256>;

/// One thread's request cells. Written only by that thread.
struct RequestRecorder {
    cells: RequestCells,
}

impl RequestRecorder {
    fn new() -> Self {
        memory::allocated(std::mem::size_of::<Self>());
        Self { cells: Cells::new() }
    }
}

impl Recorder for RequestRecorder {
    type Cell = RequestCell;
    fn for_each_cell(&self, f: impl FnMut(usize, &RequestCell)) {
        self.cells.for_each(f);
    }
}

impl Drop for RequestRecorder {
    fn drop(&mut self) {
        memory::freed(std::mem::size_of::<Self>());
    }
}

static REGISTRY: Registry<RequestRecorder, RequestTotals> = Registry::new();

thread_local! {
    static CURRENT: Current<RequestRecorder> = const { Cell::new(ptr::null()) };
    static EXIT: ExitHook<RequestRecorder, RequestTotals> = const { ExitHook::new(&CURRENT, &REGISTRY) };
}

/// Runs `f` on this thread's cell of row `id`; counts a drop when there is none (the
/// thread is exiting).
#[inline]
pub(crate) fn with_cell(id: u32, f: impl FnOnce(&RequestCell)) {
    let done = record::with_recorder(
        &REGISTRY,
        &CURRENT,
        &EXIT,
        RequestRecorder::new,
        #[inline(always)]
        |r| r.cells.get(id).map(f),
    );
    if done.flatten().is_none() {
        crate::switch::count_dropped();
    }
}

/// Every row's totals over live and exited threads, indexed by row id.
pub(crate) fn collect() -> Vec<RequestTotals> {
    REGISTRY.collect()
}
