//! The measured-function stack of each thread, readable from a signal handler.
//!
//! Frames push their site id on entry and pop it on exit (sync calls) or around each
//! poll (async calls), so a CPU sample taken on a thread knows which measured
//! functions were active there at that instant, inlined or not. The stack lives in
//! a const-initialized thread-local without a destructor, so the signal handler can
//! read it at any point of the thread's life. Deeper than [`DEPTH`] frames, ids are
//! not stored but the depth still counts, and samples there are marked truncated.

use std::cell::Cell;
use std::sync::atomic::{compiler_fence, Ordering};

/// Frames whose ids are kept.
pub(crate) const DEPTH: usize = 64;

pub(crate) struct SiteStack {
    depth: Cell<u32>,
    ids: [Cell<u32>; DEPTH],
}

thread_local! {
    static STACK: SiteStack = const { SiteStack { depth: Cell::new(0), ids: [const { Cell::new(0) }; DEPTH] } };
}

/// Enters a frame of site `id` on this thread.
#[inline(always)]
pub(crate) fn push(id: u32) {
    STACK.with(|s| {
        let depth = s.depth.get();
        if let Some(slot) = s.ids.get(depth as usize) {
            slot.set(id);
        }
        // The id must be in place before a signal handler can see the new depth.
        compiler_fence(Ordering::SeqCst);
        s.depth.set(depth + 1);
    });
}

/// Leaves the innermost frame on this thread.
#[inline(always)]
pub(crate) fn pop() {
    STACK.with(|s| s.depth.set(s.depth.get().saturating_sub(1)));
}

/// The innermost measured site on this thread, if any (and if within [`DEPTH`]).
/// Read by the HTTP and SQL instruments only (the function a call was made in).
#[inline]
#[cfg(any(feature = "services-http", feature = "services-sql"))]
pub(crate) fn top() -> Option<u32> {
    STACK.with(|s| {
        let depth = s.depth.get() as usize;
        depth.checked_sub(1).and_then(|i| s.ids.get(i)).map(Cell::get)
    })
}

/// Copies this thread's stack (outermost first) into `out`; returns how many ids
/// were copied and whether frames beyond [`DEPTH`] were left out. Signal-safe.
pub(crate) fn copy(out: &mut [u32; DEPTH]) -> (usize, bool) {
    STACK.with(|s| {
        let depth = s.depth.get() as usize;
        let kept = depth.min(DEPTH);
        for (dst, src) in out.iter_mut().zip(&s.ids[..kept]) {
            *dst = src.get();
        }
        (kept, depth > DEPTH)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_pop_copy_and_overflow() {
        let mut out = [0; DEPTH];
        push(5);
        push(9);
        assert_eq!(copy(&mut out), (2, false));
        assert_eq!(&out[..2], &[5, 9]);
        pop();
        for i in 0..100 {
            push(100 + i);
        }
        assert_eq!(copy(&mut out), (DEPTH, true));
        assert_eq!(out[0], 5);
        for _ in 0..100 {
            pop();
        }
        pop();
        pop(); // extra pops never underflow
        assert_eq!(copy(&mut out), (0, false));
    }
}
