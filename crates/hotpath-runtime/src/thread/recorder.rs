//! A thread's table of site cells: a fixed directory of lazily allocated chunks, so
//! cells never move once created and the collector can read them while the owner
//! thread keeps writing.

use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

use crate::functions::{SiteCell, Usage};
use crate::memory;

const CHUNK: usize = 64;
/// 256 chunks of 64: sites past 16,384 are not recorded (and are counted as dropped).
const DIRECTORY: usize = 256;

struct Chunk([AtomicPtr<SiteCell>; CHUNK]);

/// Recording state of one thread. Written only by that thread.
pub(crate) struct ThreadRecorder {
    directory: [AtomicPtr<Chunk>; DIRECTORY],
    /// Inclusive usage of the finished measured calls nested in the current frame.
    /// Each frame saves it on entry and restores it (plus its own usage) on exit, so
    /// the frames form a stack through the guards on the native stack, without a
    /// depth limit. Owner-only.
    children: Children,
}

/// The `children` accumulator: one owner-only atomic per [`Usage`] component.
#[derive(Default)]
struct Children {
    ticks: AtomicU64,
    #[cfg(feature = "alloc")]
    bytes: AtomicU64,
    #[cfg(feature = "alloc")]
    allocs: AtomicU64,
}

impl Children {
    #[inline(always)]
    fn replace(&self, value: Usage) -> Usage {
        let r = Ordering::Relaxed;
        let old = Usage {
            ticks: self.ticks.load(r),
            #[cfg(feature = "alloc")]
            bytes: self.bytes.load(r),
            #[cfg(feature = "alloc")]
            allocs: self.allocs.load(r),
        };
        self.ticks.store(value.ticks, r);
        #[cfg(feature = "alloc")]
        {
            self.bytes.store(value.bytes, r);
            self.allocs.store(value.allocs, r);
        }
        old
    }
}

impl ThreadRecorder {
    pub(crate) fn new() -> Self {
        memory::allocated(std::mem::size_of::<Self>());
        Self { directory: [const { AtomicPtr::new(ptr::null_mut()) }; DIRECTORY], children: Children::default() }
    }

    /// The cell of site `id`, created on first use; `None` past [`MAX_SITES`].
    #[inline(always)]
    pub(crate) fn cell(&self, id: u32) -> Option<&SiteCell> {
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
    fn create_cell(&self, id: usize) -> Option<&SiteCell> {
        memory::untracked(|| self.allocate_cell(id))
    }

    fn allocate_cell(&self, id: usize) -> Option<&SiteCell> {
        let slot = self.directory.get(id / CHUNK)?;
        let mut chunk = slot.load(Ordering::Relaxed);
        if chunk.is_null() {
            chunk = Box::into_raw(Box::new(Chunk([const { AtomicPtr::new(ptr::null_mut()) }; CHUNK])));
            memory::allocated(std::mem::size_of::<Chunk>());
            slot.store(chunk, Ordering::Release);
        }
        // SAFETY: as in `cell`.
        let cell_slot = unsafe { &(*chunk).0[id % CHUNK] };
        let cell = Box::into_raw(Box::new(SiteCell::new()));
        memory::allocated(std::mem::size_of::<SiteCell>());
        cell_slot.store(cell, Ordering::Release);
        Some(unsafe { &*cell })
    }

    /// Visits every cell with its site id; safe to call from any thread.
    pub(crate) fn for_each_cell(&self, mut f: impl FnMut(usize, &SiteCell)) {
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

    /// Starts a frame: returns the enclosing frame's children usage and resets it.
    #[inline(always)]
    pub(crate) fn push_frame(&self) -> Usage {
        self.children.replace(Usage::default())
    }

    /// Ends a frame whose inclusive usage was `inclusive`: returns its exclusive usage
    /// and restores the enclosing frame's children usage, now including this frame.
    #[inline(always)]
    pub(crate) fn pop_frame(&self, saved: Usage, inclusive: Usage) -> Usage {
        let nested = self.children.replace(saved.plus(inclusive));
        inclusive.since(nested)
    }
}

impl Drop for ThreadRecorder {
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
                    memory::freed(std::mem::size_of::<SiteCell>());
                }
            }
            memory::freed(std::mem::size_of::<Chunk>());
        }
        memory::freed(std::mem::size_of::<Self>());
    }
}
