//! Which recorders are alive, and the totals of threads that have exited.

use std::cell::Cell;
use std::ptr;
use std::sync::{Arc, Mutex};

use super::ThreadRecorder;
use crate::functions::SiteTotals;
use crate::memory;
use crate::sync::lock;

struct Registry {
    live: Vec<Arc<ThreadRecorder>>,
    /// Totals of exited threads, indexed by site id.
    retired: Vec<SiteTotals>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry { live: Vec::new(), retired: Vec::new() });

/// Marks a thread whose recorder was already retired.
const DEAD: *const ThreadRecorder = ptr::without_provenance(1);

thread_local! {
    // Const-initialized and without a destructor: reading it is one TLS load.
    static CURRENT: Cell<*const ThreadRecorder> = const { Cell::new(ptr::null()) };
    // Its destructor retires the recorder when the thread exits.
    static EXIT: ExitHook = const { ExitHook };
}

/// This thread's recorder, attached on first use; null while the thread is exiting.
///
/// The pointer stays valid on this thread until its thread-local destructors run.
#[inline(always)]
pub(crate) fn current() -> *const ThreadRecorder {
    let p = CURRENT.with(Cell::get);
    if p as usize > DEAD as usize {
        p
    } else {
        attach()
    }
}

#[cold]
#[inline(never)]
fn attach() -> *const ThreadRecorder {
    if CURRENT.with(Cell::get) == DEAD || EXIT.try_with(|_| ()).is_err() {
        return ptr::null();
    }
    let recorder = memory::untracked(|| {
        let recorder = Arc::new(ThreadRecorder::new());
        lock(&REGISTRY).live.push(Arc::clone(&recorder));
        recorder
    });
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
            let recorder = unsafe { Arc::from_raw(p) };
            memory::untracked(|| retire(recorder));
        }
    }
}

/// Folds an exiting thread's numbers into the retired totals and frees its recorder.
fn retire(recorder: Arc<ThreadRecorder>) {
    let mut registry = lock(&REGISTRY);
    let registry = &mut *registry;
    recorder.for_each_cell(|id, cell| {
        if registry.retired.len() <= id {
            let before = registry.retired.capacity();
            registry.retired.resize_with(id + 1, SiteTotals::default);
            memory::allocated((registry.retired.capacity() - before) * std::mem::size_of::<SiteTotals>());
        }
        let totals = &mut registry.retired[id];
        let before = totals.heap_bytes();
        totals.add_cell(cell);
        memory::allocated(totals.heap_bytes() - before);
    });
    registry.live.retain(|r| !Arc::ptr_eq(r, &recorder));
}

/// Every site's totals over live and exited threads, indexed by site id.
pub(crate) fn collect() -> Vec<SiteTotals> {
    let registry = lock(&REGISTRY);
    let mut out = registry.retired.clone();
    for recorder in &registry.live {
        recorder.for_each_cell(|id, cell| {
            if out.len() <= id {
                out.resize_with(id + 1, SiteTotals::default);
            }
            out[id].add_cell(cell);
        });
    }
    out
}

/// Threads with a live recorder.
pub(crate) fn live_threads() -> usize {
    lock(&REGISTRY).live.len()
}
