//! Per-thread I/O cells, and the registry of live and exited threads' cells.
//!
//! Same design as the function recorders in `thread/`, kept separate so that I/O
//! entries (which `iter = true` can create per instance) have their own id space:
//! a fixed directory of lazily allocated chunks, so a cell never moves once
//! created and the collector can read it while its thread keeps writing. When a
//! thread exits, a thread-local destructor folds its cells into the retired totals
//! and frees them, so memory is bounded by entries × live threads.

use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Arc, Mutex};

use super::cell::{IoCell, IoTotals};
use crate::memory;
use crate::sync::lock;

const CHUNK: usize = 64;
const DIRECTORY: usize = 512;
/// Entry ids are below this; further entries are not created (see `site`).
pub(crate) const MAX_ENTRIES: usize = CHUNK * DIRECTORY;

struct Chunk([AtomicPtr<IoCell>; CHUNK]);

/// One thread's I/O cells. Written only by that thread.
pub(crate) struct IoRecorder {
    directory: [AtomicPtr<Chunk>; DIRECTORY],
}

impl IoRecorder {
    fn new() -> Self {
        memory::allocated(std::mem::size_of::<Self>());
        Self { directory: [const { AtomicPtr::new(ptr::null_mut()) }; DIRECTORY] }
    }

    /// The cell of entry `id`, created on first use.
    #[inline(always)]
    fn cell(&self, id: u32) -> Option<&IoCell> {
        let id = id as usize;
        let chunk = self.directory.get(id / CHUNK)?.load(Ordering::Relaxed);
        if !chunk.is_null() {
            // SAFETY: chunks and cells live until `drop`; only the owner calls `cell`.
            let cell = unsafe { &(*chunk).0[id % CHUNK] }.load(Ordering::Relaxed);
            if !cell.is_null() {
                return Some(unsafe { &*cell });
            }
        }
        self.create_cell(id)
    }

    #[cold]
    #[inline(never)]
    fn create_cell(&self, id: usize) -> Option<&IoCell> {
        let slot = self.directory.get(id / CHUNK)?;
        let mut chunk = slot.load(Ordering::Relaxed);
        if chunk.is_null() {
            chunk = Box::into_raw(Box::new(Chunk([const { AtomicPtr::new(ptr::null_mut()) }; CHUNK])));
            memory::allocated(std::mem::size_of::<Chunk>());
            slot.store(chunk, Ordering::Release);
        }
        // SAFETY: as in `cell`.
        let cell_slot = unsafe { &(*chunk).0[id % CHUNK] };
        let cell = Box::into_raw(Box::new(IoCell::new()));
        memory::allocated(std::mem::size_of::<IoCell>());
        cell_slot.store(cell, Ordering::Release);
        Some(unsafe { &*cell })
    }

    /// Visits every cell with its entry id; safe to call from any thread.
    fn for_each_cell(&self, mut f: impl FnMut(usize, &IoCell)) {
        for (c, slot) in self.directory.iter().enumerate() {
            let chunk = slot.load(Ordering::Acquire);
            if chunk.is_null() {
                continue;
            }
            // SAFETY: published with Release by the owner, freed only in `drop`.
            for (i, cell) in unsafe { &(*chunk).0 }.iter().enumerate() {
                let cell = cell.load(Ordering::Acquire);
                if !cell.is_null() {
                    f(c * CHUNK + i, unsafe { &*cell });
                }
            }
        }
    }
}

impl Drop for IoRecorder {
    fn drop(&mut self) {
        for slot in &mut self.directory {
            let chunk = *slot.get_mut();
            if chunk.is_null() {
                continue;
            }
            // SAFETY: allocated in `create_cell` with `Box::new`; freed once here.
            let mut chunk = unsafe { Box::from_raw(chunk) };
            for cell in &mut chunk.0 {
                let cell = *cell.get_mut();
                if !cell.is_null() {
                    drop(unsafe { Box::from_raw(cell) });
                    memory::freed(std::mem::size_of::<IoCell>());
                }
            }
            memory::freed(std::mem::size_of::<Chunk>());
        }
        memory::freed(std::mem::size_of::<Self>());
    }
}

struct Registry {
    live: Vec<Arc<IoRecorder>>,
    /// Totals of exited threads, indexed by entry id.
    retired: Vec<IoTotals>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry { live: Vec::new(), retired: Vec::new() });

/// Marks a thread whose recorder was already retired.
const DEAD: *const IoRecorder = ptr::without_provenance(1);

thread_local! {
    // Const-initialized and without a destructor: reading it is one TLS load.
    static CURRENT: Cell<*const IoRecorder> = const { Cell::new(ptr::null()) };
    // Its destructor retires the recorder when the thread exits.
    static EXIT: ExitHook = const { ExitHook };
}

/// This thread's cell for entry `id`; `None` while the thread is exiting.
#[inline(always)]
pub(crate) fn cell(id: u32) -> Option<&'static IoCell> {
    let mut p = CURRENT.with(Cell::get);
    if p as usize <= DEAD as usize {
        p = attach();
    }
    // SAFETY: a non-null recorder stays valid on this thread until its exit hook
    // runs, and the returned cell is used before this call's caller returns.
    unsafe { p.as_ref() }.and_then(|r| r.cell(id))
}

#[cold]
#[inline(never)]
fn attach() -> *const IoRecorder {
    if CURRENT.with(Cell::get) == DEAD || EXIT.try_with(|_| ()).is_err() {
        return ptr::null();
    }
    let recorder = Arc::new(IoRecorder::new());
    lock(&REGISTRY).live.push(Arc::clone(&recorder));
    let p = Arc::into_raw(recorder);
    CURRENT.with(|c| c.set(p));
    p
}

struct ExitHook;

impl Drop for ExitHook {
    fn drop(&mut self) {
        let p = CURRENT.with(|c| c.replace(DEAD));
        if p as usize > DEAD as usize {
            // SAFETY: `p` came from `Arc::into_raw` in `attach` and is released once.
            retire(unsafe { Arc::from_raw(p) });
        }
    }
}

/// Folds an exiting thread's cells into the retired totals and frees its recorder.
fn retire(recorder: Arc<IoRecorder>) {
    let mut registry = lock(&REGISTRY);
    let registry = &mut *registry;
    recorder.for_each_cell(|id, cell| {
        if registry.retired.len() <= id {
            let before = registry.retired.capacity();
            registry.retired.resize_with(id + 1, IoTotals::default);
            memory::allocated((registry.retired.capacity() - before) * std::mem::size_of::<IoTotals>());
        }
        let totals = &mut registry.retired[id];
        let before = totals.heap_bytes();
        totals.add_cell(cell);
        memory::allocated(totals.heap_bytes() - before);
    });
    registry.live.retain(|r| !Arc::ptr_eq(r, &recorder));
}

/// Every entry's totals over live and exited threads, indexed by entry id.
pub(crate) fn collect() -> Vec<IoTotals> {
    let registry = lock(&REGISTRY);
    let mut out = registry.retired.clone();
    for recorder in &registry.live {
        recorder.for_each_cell(|id, cell| {
            if out.len() <= id {
                out.resize_with(id + 1, IoTotals::default);
            }
            out[id].add_cell(cell);
        });
    }
    out
}
