//! A thread's table of cells by id: a fixed directory of lazily allocated chunks,
//! so cells never move once created and the collector can read them while the
//! owner thread keeps writing. Function sites and `io!` entries each have one.
//!
//! The owner publishes each new chunk and cell with a release store; the collector
//! reads pointers with acquire loads, so it sees a cell whole or not at all. The
//! atomics come from `crate::sync`, so a loom build model-checks this (`loom_tests`).

use std::ptr;

use crate::memory;
use crate::sync::atomic::{AtomicPtr, Ordering};

const CHUNK: usize = 64;

struct Chunk<C>([AtomicPtr<C>; CHUNK]);

impl<C> Chunk<C> {
    fn empty() -> Self {
        Self(std::array::from_fn(|_| AtomicPtr::new(ptr::null_mut())))
    }
}

/// Cells `0..CHUNK * CHUNKS`, created on first use. Written only by the owner thread.
pub(crate) struct Cells<C, const CHUNKS: usize> {
    directory: [AtomicPtr<Chunk<C>>; CHUNKS],
    /// Makes the cell of an id.
    init: fn(usize) -> C,
}

fn default_cell<C: Default>(_id: usize) -> C {
    C::default()
}

impl<C: Default, const CHUNKS: usize> Cells<C, CHUNKS> {
    /// Cells made with `C::default()`.
    #[cfg(not(all(loom, test)))]
    pub(crate) const fn new() -> Self {
        Self::with_init(default_cell::<C>)
    }

    /// Loom's atomics cannot be built in a constant.
    #[cfg(all(loom, test))]
    pub(crate) fn new() -> Self {
        Self::with_init(default_cell::<C>)
    }
}

impl<C, const CHUNKS: usize> Cells<C, CHUNKS> {
    /// Cells made by `init` from their id.
    #[cfg(not(all(loom, test)))]
    pub(crate) const fn with_init(init: fn(usize) -> C) -> Self {
        Self { directory: [const { AtomicPtr::new(ptr::null_mut()) }; CHUNKS], init }
    }

    /// Loom's atomics cannot be built in a constant.
    #[cfg(all(loom, test))]
    pub(crate) fn with_init(init: fn(usize) -> C) -> Self {
        Self { directory: std::array::from_fn(|_| AtomicPtr::new(ptr::null_mut())), init }
    }

    /// The cell of `id`, created on first use; `None` at and past `CHUNK * CHUNKS`.
    #[inline(always)]
    pub(crate) fn get(&self, id: u32) -> Option<&C> {
        let id = id as usize;
        let chunk = self.directory.get(id / CHUNK)?.load(Ordering::Relaxed);
        if !chunk.is_null() {
            // SAFETY: a non-null chunk was allocated by `allocate` on this (the owner)
            // thread and lives until `drop`, which needs `&mut self`.
            let cell = unsafe { &(*chunk).0[id % CHUNK] }.load(Ordering::Relaxed);
            if !cell.is_null() {
                // SAFETY: likewise for cells; shared access only, cells are `Sync` data.
                return Some(unsafe { &*cell });
            }
        }
        self.create(id)
    }

    /// The profiler's own allocation: never counted as the program's.
    #[cold]
    #[inline(never)]
    fn create(&self, id: usize) -> Option<&C> {
        memory::untracked(|| self.allocate(id))
    }

    fn allocate(&self, id: usize) -> Option<&C> {
        let slot = self.directory.get(id / CHUNK)?;
        let mut chunk = slot.load(Ordering::Relaxed);
        if chunk.is_null() {
            chunk = Box::into_raw(Box::new(Chunk::empty()));
            memory::allocated(std::mem::size_of::<Chunk<C>>());
            slot.store(chunk, Ordering::Release);
        }
        // SAFETY: `chunk` is non-null and lives until `drop` (as in `get`).
        let cell_slot = unsafe { &(*chunk).0[id % CHUNK] };
        let cell = Box::into_raw(Box::new((self.init)(id)));
        memory::allocated(std::mem::size_of::<C>());
        cell_slot.store(cell, Ordering::Release);
        // SAFETY: just allocated; freed only in `drop`.
        Some(unsafe { &*cell })
    }

    /// Visits every cell with its id; safe to call from any thread.
    pub(crate) fn for_each(&self, mut f: impl FnMut(usize, &C)) {
        for (c, slot) in self.directory.iter().enumerate() {
            let chunk = slot.load(Ordering::Acquire);
            if chunk.is_null() {
                continue;
            }
            // SAFETY: published with Release by the owner after it was initialized;
            // freed only in `drop`, which cannot run while `&self` is borrowed.
            for (i, cell) in unsafe { &(*chunk).0 }.iter().enumerate() {
                let cell = cell.load(Ordering::Acquire);
                if !cell.is_null() {
                    // SAFETY: as for the chunk.
                    f(c * CHUNK + i, unsafe { &*cell });
                }
            }
        }
    }
}

impl<C, const CHUNKS: usize> Drop for Cells<C, CHUNKS> {
    fn drop(&mut self) {
        for slot in &mut self.directory {
            let chunk = slot.load(Ordering::Relaxed);
            if chunk.is_null() {
                continue;
            }
            // SAFETY: allocated in `allocate` with `Box::new`; freed once here, with no
            // other reference left (`&mut self`).
            let chunk = unsafe { Box::from_raw(chunk) };
            for cell in &chunk.0 {
                let cell = cell.load(Ordering::Relaxed);
                if !cell.is_null() {
                    // SAFETY: as for the chunk.
                    drop(unsafe { Box::from_raw(cell) });
                    memory::freed(std::mem::size_of::<C>());
                }
            }
            memory::freed(std::mem::size_of::<Chunk<C>>());
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use std::sync::atomic::AtomicU64;

    use super::*;

    #[test]
    fn owner_creates_while_a_collector_reads() {
        let cells = Cells::<AtomicU64, 4>::new();
        let ids = [0u32, 1, 63, 64, 200, 255];
        std::thread::scope(|s| {
            s.spawn(|| {
                for _ in 0..20 {
                    cells.for_each(|id, cell| assert!(ids.contains(&(id as u32)) && cell.load(Ordering::Relaxed) <= 1));
                }
            });
            for id in ids {
                cells.get(id).unwrap().store(1, Ordering::Relaxed);
            }
        });
        assert!(cells.get(256).is_none(), "past capacity");
        let mut seen = Vec::new();
        cells.for_each(|id, cell| seen.push((id as u32, cell.load(Ordering::Relaxed))));
        assert_eq!(seen, ids.map(|id| (id, 1)));
    }
}

/// Model check: a collector on another thread reads the table while the owner
/// creates cells in two chunks; every cell it sees is fully initialized.
#[cfg(all(loom, test))]
mod loom_tests {
    use loom::sync::Arc;
    use loom::thread;

    use super::*;
    use crate::sync::cell::UnsafeCell;

    /// A cell whose initialization loom tracks: reading it without synchronizing
    /// with its creation fails the model.
    struct Probe(UnsafeCell<u64>);

    impl Default for Probe {
        fn default() -> Self {
            let probe = Probe(UnsafeCell::new(0));
            // SAFETY: not shared yet.
            probe.0.with_mut(|v| unsafe { *v = 7 });
            probe
        }
    }

    #[test]
    fn loom_collector_reads_cells_while_the_owner_creates_them() {
        loom::model(|| {
            let cells = Arc::new(Cells::<Probe, 2>::new());
            let collector = {
                let cells = Arc::clone(&cells);
                thread::spawn(move || {
                    let mut seen = Vec::new();
                    // SAFETY: cells are only read after creation.
                    cells.for_each(|id, p| seen.push((id, p.0.with(|v| unsafe { *v }))));
                    seen
                })
            };
            cells.get(1).unwrap();
            cells.get(CHUNK as u32).unwrap();
            for (id, value) in collector.join().unwrap() {
                assert!(id == 1 || id == CHUNK, "{id}");
                assert_eq!(value, 7);
            }
        });
    }
}
