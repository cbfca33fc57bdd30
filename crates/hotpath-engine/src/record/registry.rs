//! Which recorders are alive, and the totals of threads that have exited; shared by
//! function recording and `io!`, each with its own registry and thread-locals.
//!
//! A thread's recorder is reached through a const-initialized thread-local pointer
//! (one TLS load) and attached on first use, a cold path that takes the registry
//! lock once. A second thread-local with a destructor, [`ExitHook`], folds the
//! recorder's cells into the retired totals when the thread exits and frees it, so
//! memory is bounded by cells × live threads.
//!
//! Thread-local destructors that run after the hook may still make measured calls:
//! such a call attaches a fresh recorder, retired in turn by [`LATE`], a thread-local
//! first touched then, whose destructor therefore runs after the one making the call.

use std::cell::{Cell, RefCell};
use std::ptr;
use std::sync::{Arc, Mutex};
use std::thread::LocalKey;

use crate::memory;
use crate::sync::lock;

/// A per-thread recorder: a table of cells the collector can read from any thread.
pub(crate) trait Recorder: Send + Sync + 'static {
    type Cell;
    fn for_each_cell(&self, f: impl FnMut(usize, &Self::Cell));
    /// Whether something outside the thread still writes its cells (a running async
    /// call's start slot): the recorder is then kept after the thread exits.
    fn holds(&self) -> bool {
        false
    }
    /// Called once the recorder is listed, under the registry's lock.
    fn attached(&self) {}
}

/// A cell that can be zeroed from the collector for a new session.
pub(crate) trait Reset {
    fn reset(&self);
}

/// The numbers of one id merged over threads.
pub(crate) trait Totals<C>: Default + Clone + 'static {
    fn add_cell(&mut self, cell: &C);
    /// Adds what a cell holds for calls still running and must not be folded into the
    /// retired totals (read from live recorders and held ones).
    fn add_held(&mut self, _cell: &C) {}
    /// Heap memory the totals own (histogram octaves), for the profiler's accounting.
    fn heap_bytes(&self) -> usize;
}

pub(crate) struct Registry<R, T> {
    lists: Mutex<Lists<R, T>>,
}

struct Lists<R, T> {
    live: Vec<Arc<R>>,
    /// Totals of exited threads, indexed by id.
    retired: Vec<T>,
    /// Exited threads' recorders that [`Recorder::holds`]: only their held values are
    /// read, and they are freed once nothing holds them.
    held: Vec<Arc<R>>,
}

/// The thread-local pointer to a thread's recorder: null before the first use,
/// [`dead`] once the thread has retired it.
pub(crate) type Current<R> = Cell<*const R>;

fn dead<R>() -> *const R {
    ptr::without_provenance(1)
}

impl<R: Recorder, T: Totals<R::Cell>> Registry<R, T> {
    pub(crate) const fn new() -> Self {
        Self { lists: Mutex::new(Lists { live: Vec::new(), retired: Vec::new(), held: Vec::new() }) }
    }

    /// This thread's recorder, attached on first use; null while the thread is exiting.
    /// The pointer stays valid on this thread until its thread-local destructors run.
    #[inline(always)]
    pub(crate) fn current(
        &'static self,
        current: &'static LocalKey<Current<R>>,
        exit: &'static LocalKey<ExitHook<R, T>>,
        new: fn() -> R,
    ) -> *const R {
        let p = current.with(Cell::get);
        if p as usize > dead::<R>() as usize {
            p
        } else {
            self.attach(current, exit, new)
        }
    }

    /// This thread's recorder if attached, else null; never attaches.
    #[inline(always)]
    pub(crate) fn attached(&'static self, current: &'static LocalKey<Current<R>>) -> *const R {
        let p = current.with(Cell::get);
        if p as usize > dead::<R>() as usize {
            p
        } else {
            ptr::null()
        }
    }

    #[cold]
    #[inline(never)]
    fn attach(
        &'static self,
        current: &'static LocalKey<Current<R>>,
        exit: &'static LocalKey<ExitHook<R, T>>,
        new: fn() -> R,
    ) -> *const R {
        if current.with(Cell::get) == dead() || exit.try_with(|_| ()).is_err() {
            return self.attach_late(current, new);
        }
        #[cfg(feature = "threads")]
        super::exit_hook::watch();
        self.attach_new(current, new)
    }

    fn attach_new(&self, current: &'static LocalKey<Current<R>>, new: fn() -> R) -> *const R {
        crate::sampling::seed_thread();
        let recorder = memory::untracked(|| {
            let recorder = Arc::new(new());
            let mut lists = lock(&self.lists);
            lists.live.push(Arc::clone(&recorder));
            recorder.attached();
            drop(lists);
            recorder
        });
        let p = Arc::into_raw(recorder);
        current.with(|c| c.set(p));
        p
    }

    /// A measured call after the exit hook ran (from a later thread-local destructor):
    /// a new recorder, retired when [`LATE`] is destroyed. Null once that is gone too.
    fn attach_late(&'static self, current: &'static LocalKey<Current<R>>, new: fn() -> R) -> *const R {
        let hook: Box<dyn Retire> = memory::untracked(|| Box::new(ExitHook { current, registry: self }));
        let attached = LATE.try_with(|late| {
            let p = self.attach_new(current, new);
            memory::untracked(|| late.0.borrow_mut().push(hook));
            p
        });
        attached.unwrap_or(ptr::null())
    }

    /// Folds an exiting thread's cells into the retired totals and frees its recorder.
    fn retire(&self, recorder: Arc<R>) {
        let mut lists = lock(&self.lists);
        let lists = &mut *lists;
        recorder.for_each_cell(|id, cell| {
            if lists.retired.len() <= id {
                let before = lists.retired.capacity();
                lists.retired.resize_with(id + 1, T::default);
                memory::allocated((lists.retired.capacity() - before) * std::mem::size_of::<T>());
            }
            let totals = &mut lists.retired[id];
            let before = totals.heap_bytes();
            totals.add_cell(cell);
            memory::allocated(totals.heap_bytes() - before);
        });
        lists.live.retain(|r| !Arc::ptr_eq(r, &recorder));
        if recorder.holds() {
            lists.held.push(recorder);
        }
    }

    /// Every id's totals over live and exited threads, indexed by id.
    pub(crate) fn collect(&self) -> Vec<T> {
        let mut lists = lock(&self.lists);
        // Freed on the collector's thread: the profiler's memory, not the program's.
        memory::untracked(|| lists.held.retain(|r| r.holds()));
        let mut out = lists.retired.clone();
        let grow = |out: &mut Vec<T>, id: usize| {
            if out.len() <= id {
                out.resize_with(id + 1, T::default);
            }
        };
        for recorder in &lists.live {
            recorder.for_each_cell(|id, cell| {
                grow(&mut out, id);
                out[id].add_cell(cell);
                out[id].add_held(cell);
            });
        }
        for recorder in &lists.held {
            recorder.for_each_cell(|id, cell| {
                grow(&mut out, id);
                out[id].add_held(cell);
            });
        }
        out
    }

    /// Forgets every number for a new session: the exited threads' totals are
    /// dropped and the live threads' cells zeroed (cells stay where they are).
    pub(crate) fn reset(&self)
    where
        R::Cell: Reset,
    {
        let mut lists = lock(&self.lists);
        let held: usize = lists.retired.iter().map(|t| t.heap_bytes() + std::mem::size_of::<T>()).sum();
        memory::freed(held);
        lists.retired = Vec::new();
        for recorder in &lists.live {
            recorder.for_each_cell(|_, cell| cell.reset());
        }
    }

    /// Visits every live recorder, under the registry's lock.
    pub(crate) fn for_each_live(&self, mut f: impl FnMut(&R)) {
        lock(&self.lists).live.iter().for_each(|r| f(r));
    }

    /// Pairs of counts `read` from every live thread's cells, summed per id (what the
    /// overhead budget's thread reads each tick).
    pub(crate) fn live_counts(&self, read: impl Fn(&R::Cell) -> (u64, u64)) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        self.for_each_live(|r| {
            r.for_each_cell(|id, cell| {
                if out.len() <= id {
                    out.resize(id + 1, (0, 0));
                }
                let (a, b) = read(cell);
                out[id].0 += a;
                out[id].1 += b;
            })
        });
        out
    }

    /// Threads with a live recorder.
    pub(crate) fn live_threads(&self) -> usize {
        lock(&self.lists).live.len()
    }
}

/// Retires the thread's recorder when its thread-locals are destroyed.
pub(crate) struct ExitHook<R: Recorder, T: Totals<R::Cell>> {
    current: &'static LocalKey<Current<R>>,
    registry: &'static Registry<R, T>,
}

impl<R: Recorder, T: Totals<R::Cell>> ExitHook<R, T> {
    pub(crate) const fn new(current: &'static LocalKey<Current<R>>, registry: &'static Registry<R, T>) -> Self {
        Self { current, registry }
    }
}

impl<R: Recorder, T: Totals<R::Cell>> Drop for ExitHook<R, T> {
    fn drop(&mut self) {
        self.retire();
    }
}

/// Retires a thread's recorder of one registry; type-erased for [`LATE`].
trait Retire {
    fn retire(&self);
}

impl<R: Recorder, T: Totals<R::Cell>> Retire for ExitHook<R, T> {
    fn retire(&self) {
        // The pointer is marked dead before the recorder is freed: a later call on this
        // thread attaches anew instead of using it.
        let p = self.current.with(|c| c.replace(dead()));
        if p as usize > dead::<R>() as usize {
            // SAFETY: `p` came from `Arc::into_raw` in `attach_new` and was the thread's
            // only copy; it was just replaced, so it is released once.
            let recorder = unsafe { Arc::from_raw(p) };
            memory::untracked(|| self.registry.retire(recorder));
        }
    }
}

/// Recorders attached after their registry's exit hook ran, retired on destruction.
struct Late(RefCell<Vec<Box<dyn Retire>>>);

impl Drop for Late {
    fn drop(&mut self) {
        memory::untracked(|| std::mem::take(self.0.get_mut()).into_iter().for_each(|hook| hook.retire()));
    }
}

thread_local! {
    // First touched by a measured call in a thread-local destructor, so it is
    // destroyed after that destructor.
    static LATE: Late = const { Late(RefCell::new(Vec::new())) };
}
