//! Start ticks of running async calls, for the age of the oldest one.
//!
//! A sync call's start sits in its thread's cell while it is on the stack; an async
//! call may end on another thread, so its start cannot be kept by a per-thread count.
//! Instead its first poll claims a free slot of the polling thread's cell (only that
//! thread claims there: a load and a store, no read-modify-write) and writes its start
//! into it; the call clears the slot when it ends or is dropped, on whatever thread.
//! A slot belongs to one call from claim to release, so it never has two writers. A
//! thread that exits while slots of its cells are claimed keeps its recorder alive in
//! the registry (`Recorder::holds`) until they are released. When every slot of a cell
//! is taken, the call runs without one: it is counted as active, and the oldest age is
//! the oldest of the calls that hold a slot.

use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering::Acquire, Ordering::Relaxed, Ordering::Release};

/// Slots per site and thread: the first four async calls started on a thread and still
/// running, which are also the oldest ones unless older calls ended first.
const SLOTS: usize = 4;

/// A cell's slots; 0 is a free slot.
pub(crate) struct Starts([AtomicU64; SLOTS]);

impl Starts {
    pub(crate) const fn new() -> Self {
        Self([const { AtomicU64::new(0) }; SLOTS])
    }

    /// Keeps `tick` in a free slot; called only by the cell's owner thread.
    #[inline(always)]
    pub(crate) fn claim(&self, tick: u64) -> Option<StartSlot> {
        // Only the owner writes a free slot, so no other claim can take it in between.
        let slot = self.0.iter().find(|s| s.load(Relaxed) == 0)?;
        slot.store(tick | 1, Relaxed);
        Some(StartSlot(NonNull::from(slot)))
    }

    /// The earliest start held (`u64::MAX` when none).
    pub(crate) fn oldest(&self) -> u64 {
        self.0.iter().map(|s| s.load(Relaxed)).filter(|&t| t != 0).min().unwrap_or(u64::MAX)
    }

    /// Whether a running call still holds a slot; acquire pairs with the release in
    /// [`StartSlot::release`], so a cell seen free may be freed.
    pub(crate) fn held(&self) -> bool {
        self.0.iter().any(|s| s.load(Acquire) != 0)
    }
}

/// A running async call's claim on a slot; released once, when the call ends.
pub(crate) struct StartSlot(NonNull<AtomicU64>);

// SAFETY: the slot is an atomic, written through this handle only by the call that owns
// it; the cell it lives in is kept alive while the slot is non-zero (see the module docs).
unsafe impl Send for StartSlot {}
// SAFETY: as above; `&StartSlot` gives no access.
unsafe impl Sync for StartSlot {}

impl StartSlot {
    /// Frees the slot; the call's last access to it.
    #[inline(always)]
    pub(crate) fn release(self) {
        // SAFETY: the slot is non-zero until this store, and the registry frees no
        // recorder whose cells hold a non-zero slot.
        unsafe { self.0.as_ref() }.store(0, Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_hold_the_oldest_starts_and_free_on_release_from_any_thread() {
        let starts = Starts::new();
        let slots: Vec<StartSlot> = [40, 10, 30, 20].into_iter().map(|t| starts.claim(t).unwrap()).collect();
        assert!(starts.claim(50).is_none(), "all four taken: the fifth call has no slot");
        assert_eq!(starts.oldest(), 11, "the earliest start, made odd (never 0)");
        let mut slots = slots.into_iter();
        let first = slots.next().unwrap();
        let second = slots.next().unwrap();
        std::thread::spawn(move || second.release()).join().unwrap();
        assert_eq!(starts.oldest(), 21);
        assert!(starts.claim(60).is_some(), "a released slot is claimed again");
        first.release();
        slots.for_each(StartSlot::release);
        assert!(starts.held(), "the slot claimed again is still held");
    }
}
