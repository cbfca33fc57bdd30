//! The Source of SQL queries and HTTP calls without `hotpath-cpu`: each thread's stack
//! of measured sites, pushed by frames on entry and popped on exit (sync calls) or
//! around each poll (async calls), as the CPU sampler's own stack (`record::stack`) is
//! with `hotpath-cpu`. Two plain stores per measured call, in a const-initialized
//! thread-local without a destructor; only with the SQL or HTTP client instruments
//! compiled in. Deeper than [`DEPTH`] frames, the innermost site is not known.

use std::cell::Cell;

/// Frames whose ids are kept.
const DEPTH: usize = 32;

struct SiteStack {
    depth: Cell<u32>,
    ids: [Cell<u32>; DEPTH],
}

thread_local! {
    static STACK: SiteStack = const { SiteStack { depth: Cell::new(0), ids: [const { Cell::new(0) }; DEPTH] } };
}

/// Enters a frame of site `id` on this thread.
#[inline(always)]
pub(crate) fn push(id: u32) {
    let _ = STACK.try_with(|s| {
        let depth = s.depth.get();
        if let Some(slot) = s.ids.get(depth as usize) {
            slot.set(id);
        }
        s.depth.set(depth.saturating_add(1));
    });
}

/// Leaves the innermost frame on this thread.
#[inline(always)]
pub(crate) fn pop() {
    let _ = STACK.try_with(|s| s.depth.set(s.depth.get().saturating_sub(1)));
}

/// The innermost measured site on this thread, if any (and if within [`DEPTH`]).
pub(crate) fn top() -> Option<u32> {
    STACK
        .try_with(|s| {
            let depth = s.depth.get() as usize;
            depth.checked_sub(1).and_then(|i| s.ids.get(i)).map(Cell::get)
        })
        .ok()
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn innermost_site_until_too_deep() {
        assert_eq!(top(), None);
        push(3);
        push(7);
        assert_eq!(top(), Some(7));
        pop();
        assert_eq!(top(), Some(3));
        for i in 0..DEPTH as u32 {
            push(100 + i);
        }
        assert_eq!(top(), None, "frame 33 is past the kept ids");
        for _ in 0..DEPTH {
            pop();
        }
        assert_eq!(top(), Some(3));
        pop();
        pop();
        assert_eq!(top(), None, "popping past the bottom stays at 0");
    }
}
