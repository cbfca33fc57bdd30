//! A thread's table of cells by id: a fixed directory of lazily allocated chunks,
//! so cells never move once created and the collector can read them while the
//! owner thread keeps writing. Function sites and `io!` entries each have one.

use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

use crate::memory;

const CHUNK: usize = 64;

struct Chunk<C>([AtomicPtr<C>; CHUNK]);

/// Cells `0..CHUNK * CHUNKS`, created on first use. Written only by the owner thread.
pub(crate) struct Cells<C, const CHUNKS: usize> {
    directory: [AtomicPtr<Chunk<C>>; CHUNKS],
}

impl<C: Default, const CHUNKS: usize> Cells<C, CHUNKS> {
    pub(crate) const fn new() -> Self {
        Self { directory: [const { AtomicPtr::new(ptr::null_mut()) }; CHUNKS] }
    }

    /// The cell of `id`, created on first use; `None` at and past `CHUNK * CHUNKS`.
    #[inline(always)]
    pub(crate) fn get(&self, id: u32) -> Option<&C> {
        let id = id as usize;
        let chunk = self.directory.get(id / CHUNK)?.load(Ordering::Relaxed);
        if !chunk.is_null() {
            // SAFETY: a non-null chunk pointer came from `Box::into_raw` in `allocate` and
            // is freed only by `drop`, which cannot run while `&self` is borrowed.
            let cell = unsafe { &(*chunk).0[id % CHUNK] }.load(Ordering::Relaxed);
            if !cell.is_null() {
                // SAFETY: likewise for the cell, which is never moved or freed before `drop`.
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
            chunk = Box::into_raw(Box::new(Chunk([const { AtomicPtr::new(ptr::null_mut()) }; CHUNK])));
            memory::allocated(std::mem::size_of::<Chunk<C>>());
            slot.store(chunk, Ordering::Release);
        }
        // SAFETY: `chunk` is non-null here, from `Box::into_raw` and live until `drop`.
        let cell_slot = unsafe { &(*chunk).0[id % CHUNK] };
        let cell = Box::into_raw(Box::new(C::default()));
        memory::allocated(std::mem::size_of::<C>());
        cell_slot.store(cell, Ordering::Release);
        // SAFETY: just made from a `Box`; freed only by `drop`, which needs `&mut self`.
        Some(unsafe { &*cell })
    }
}

impl<C, const CHUNKS: usize> Cells<C, CHUNKS> {
    /// Visits every cell with its id; safe to call from any thread.
    pub(crate) fn for_each(&self, mut f: impl FnMut(usize, &C)) {
        for (c, slot) in self.directory.iter().enumerate() {
            let chunk = slot.load(Ordering::Acquire);
            if chunk.is_null() {
                continue;
            }
            // SAFETY: published with Release by the owner once initialized (the Acquire
            // load above pairs with it), freed only in `drop`.
            for (i, cell) in unsafe { &(*chunk).0 }.iter().enumerate() {
                let cell = cell.load(Ordering::Acquire);
                if !cell.is_null() {
                    // SAFETY: as for the chunk: published with Release, freed only in `drop`.
                    f(c * CHUNK + i, unsafe { &*cell });
                }
            }
        }
    }
}

impl<C, const CHUNKS: usize> Drop for Cells<C, CHUNKS> {
    fn drop(&mut self) {
        for slot in &mut self.directory {
            let chunk = *slot.get_mut();
            if chunk.is_null() {
                continue;
            }
            // SAFETY: allocated in `allocate` with `Box::new`; freed once here.
            let mut chunk = unsafe { Box::from_raw(chunk) };
            for cell in &mut chunk.0 {
                let cell = *cell.get_mut();
                if !cell.is_null() {
                    // SAFETY: allocated in `allocate` with `Box::new`; freed once here.
                    drop(unsafe { Box::from_raw(cell) });
                    memory::freed(std::mem::size_of::<C>());
                }
            }
            memory::freed(std::mem::size_of::<Chunk<C>>());
        }
    }
}
