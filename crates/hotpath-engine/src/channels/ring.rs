//! Send ticks of queued messages, matched to receives in FIFO order.
//!
//! A channel's message type cannot be changed without rebuilding the channel (which
//! would change its capacity, or drop what the user passed in), so a message carries no
//! timestamp. Instead the n-th successful send stores its tick in slot `n % R`, tagged
//! with `n`, and the n-th receive reads slot `n % R`: in a FIFO channel the n-th message
//! received is the n-th sent. Concurrent senders may count their messages in a slightly
//! different order than they entered the queue; a latency is then paired with a send of
//! the same instant, off by the race window only.
//!
//! The tick is read before the send call, so a receive can never precede it. When a
//! receive finds its slot not yet stamped (it overtook the rest of its sender's send
//! call), it leaves its own tick in the slot, *claimed* for that message, and the sender
//! records the latency when it comes to stamp: fast consumers are measured, not dropped.
//!
//! A sender never overwrites the tick of a message that is still queued, so when the
//! queue is deeper than the ring, later messages go unstamped until slots free up: the
//! stamped ones are a sample spread over the backlog, and each reports its real latency.
//! Each slot is a small seqlock (tag, tick), so a reader never pairs a tag with another
//! send's tick; a rare collision loses a sample, never pairs a wrong one.
//!
//! A message whose latency is not timed (a sampling rate below 1, `stamp.rs`) is
//! *skipped*: its send leaves only its tag, marked, so its receive reads no clock.

use crate::sync::atomic::{fence, AtomicU64, Ordering};

/// Tag of a slot that was never written.
const EMPTY: u64 = u64::MAX;
/// Tag of a slot being written.
const WRITING: u64 = u64::MAX - 1;
/// Tag bit of a slot claimed by a receive that came before its send's stamp.
const CLAIMED: u64 = 1 << 63;
/// Tag bit of a message sent untimed: no tick to read.
const SKIPPED: u64 = 1 << 62;
/// Largest ring: 1024 slots of 16 bytes.
pub(crate) const MAX_SLOTS: usize = 1024;

struct Slot {
    tag: AtomicU64,
    tick: AtomicU64,
}

/// What a receive found in its slot.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Stamp {
    /// The send tick of this message.
    Sent(u64),
    /// Sent untimed: there is no latency to take.
    Skipped,
    /// Not stamped (yet): the receive overtook the end of the send call, or the sender
    /// skipped it because the queue was deeper than the ring.
    Missing,
}

/// Whether a slot's tag holds the tick of a message that `consumed` receives have not
/// reached (`EMPTY` and `WRITING` have both flag bits set).
#[inline(always)]
fn queued(held: u64, consumed: u64) -> bool {
    held & (CLAIMED | SKIPPED) == 0 && held >= consumed
}

pub(crate) struct Ring {
    slots: Box<[Slot]>,
    mask: u64,
}

impl Ring {
    /// A ring with at least `slots` slots (rounded up to a power of two, at most
    /// [`MAX_SLOTS`]). A bounded channel gets one slot per place in its queue.
    pub(crate) fn new(slots: usize) -> Self {
        let n = slots.clamp(1, MAX_SLOTS).next_power_of_two();
        let slots = (0..n).map(|_| Slot { tag: AtomicU64::new(EMPTY), tick: AtomicU64::new(0) }).collect();
        Self { slots, mask: n as u64 - 1 }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Stores the tick of the `seq`-th message, unless its slot still holds a message
    /// that is not received yet (`consumed` messages have been). With `overwrite` the
    /// slot is taken regardless (broadcast: receivers keep their own positions).
    /// Returns the receive tick when the message was received before this stamp.
    #[inline(always)]
    pub(crate) fn stamp(&self, seq: u64, tick: u64, consumed: u64, overwrite: bool) -> Option<u64> {
        let slot = &self.slots[(seq & self.mask) as usize];
        let held = slot.tag.load(Ordering::Acquire);
        if held == seq | CLAIMED {
            return Some(slot.tick.load(Ordering::Relaxed));
        }
        if !overwrite && queued(held, consumed) {
            return None;
        }
        slot.tag.store(WRITING, Ordering::Relaxed);
        fence(Ordering::Release);
        slot.tick.store(tick, Ordering::Relaxed);
        slot.tag.store(seq, Ordering::Release);
        None
    }

    /// Marks the `seq`-th message sent untimed, where [`stamp`](Self::stamp) would
    /// store its tick. A receive that came first claimed the slot in vain: left as is.
    #[inline(always)]
    pub(crate) fn skip(&self, seq: u64, consumed: u64, overwrite: bool) {
        let slot = &self.slots[(seq & self.mask) as usize];
        let held = slot.tag.load(Ordering::Relaxed);
        if held == seq | CLAIMED || (!overwrite && queued(held, consumed)) {
            return;
        }
        slot.tag.store(seq | SKIPPED, Ordering::Release);
    }

    /// A receive of message `seq` at `now` found no stamp: leaves `now` in the slot for
    /// the sender, unless a later message already owns the slot (then `seq` went
    /// unstamped for good) or the stamp landed meanwhile (returned).
    pub(crate) fn claim(&self, seq: u64, now: u64) -> Option<u64> {
        let slot = &self.slots[(seq & self.mask) as usize];
        let held = slot.tag.load(Ordering::Acquire);
        if held == seq {
            return self.read(seq).tick();
        }
        // Skipped meanwhile, or a later message owns the slot (a skipped one too).
        if held == seq | SKIPPED || held == WRITING || (held != EMPTY && held & CLAIMED == 0 && held & !SKIPPED > seq) {
            return None;
        }
        if slot.tag.compare_exchange(held, WRITING, Ordering::Acquire, Ordering::Relaxed).is_err() {
            return self.read(seq).tick();
        }
        slot.tick.store(now, Ordering::Relaxed);
        slot.tag.store(seq | CLAIMED, Ordering::Release);
        None
    }

    /// The send tick of the `seq`-th message, if it was stamped.
    #[inline(always)]
    pub(crate) fn read(&self, seq: u64) -> Stamp {
        let slot = &self.slots[(seq & self.mask) as usize];
        let tag = slot.tag.load(Ordering::Acquire);
        if tag != seq {
            return if tag == seq | SKIPPED { Stamp::Skipped } else { Stamp::Missing };
        }
        let tick = slot.tick.load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        if slot.tag.load(Ordering::Relaxed) == seq {
            Stamp::Sent(tick)
        } else {
            Stamp::Missing
        }
    }

    /// The most recent stamp whatever its sequence number (watch: only the latest value
    /// can be seen).
    pub(crate) fn latest(&self) -> Stamp {
        let slot = &self.slots[0];
        let tag = slot.tag.load(Ordering::Acquire);
        if tag == EMPTY || tag == WRITING || tag & CLAIMED != 0 {
            return Stamp::Missing;
        }
        if tag & SKIPPED != 0 {
            return Stamp::Skipped;
        }
        let tick = slot.tick.load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        if slot.tag.load(Ordering::Relaxed) == tag {
            Stamp::Sent(tick)
        } else {
            Stamp::Missing
        }
    }
}

impl Stamp {
    /// The send tick, if there is one.
    fn tick(self) -> Option<u64> {
        match self {
            Stamp::Sent(tick) => Some(tick),
            Stamp::Skipped | Stamp::Missing => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_the_nth_send_with_the_nth_receive() {
        let ring = Ring::new(4);
        for seq in 0..4 {
            ring.stamp(seq, 100 + seq, 0, false);
        }
        assert_eq!(ring.read(0), Stamp::Sent(100));
        assert_eq!(ring.read(3), Stamp::Sent(103));
        assert_eq!(ring.read(4), Stamp::Missing, "not sent yet");
    }

    #[test]
    fn never_overwrites_a_queued_message() {
        let ring = Ring::new(2);
        ring.stamp(0, 10, 0, false);
        ring.stamp(1, 11, 0, false);
        ring.stamp(2, 12, 0, false); // message 0 still queued: 2 goes unstamped
        assert_eq!(ring.read(0), Stamp::Sent(10));
        assert_eq!(ring.read(2), Stamp::Missing);
        ring.stamp(3, 13, 1, false); // message 1 still queued too
        ring.stamp(4, 14, 2, false); // 0 and 1 received: slot 0 is free again
        assert_eq!(ring.read(4), Stamp::Sent(14));
        ring.stamp(5, 15, 0, true);
        assert_eq!(ring.read(5), Stamp::Sent(15), "overwrite takes the slot");
    }

    #[test]
    fn a_receive_before_the_stamp_hands_its_tick_to_the_sender() {
        let ring = Ring::new(4);
        assert_eq!(ring.read(0), Stamp::Missing);
        assert_eq!(ring.claim(0, 50), None);
        assert_eq!(ring.stamp(0, 40, 1, false), Some(50), "the sender pairs the claim");
        ring.stamp(1, 60, 1, false);
        assert_eq!(ring.claim(1, 70), Some(60), "stamped meanwhile: read, not claimed");
        ring.stamp(5, 80, 0, true);
        assert_eq!(ring.claim(1, 90), None, "a later message owns the slot");
        assert_eq!(ring.read(5), Stamp::Sent(80));
    }

    #[test]
    fn a_skipped_message_reads_as_skipped_and_frees_its_slot() {
        let ring = Ring::new(2);
        ring.skip(0, 0, false);
        assert_eq!(ring.read(0), Stamp::Skipped);
        assert_eq!(ring.claim(0, 5), None, "nothing to claim");
        assert_eq!(ring.read(0), Stamp::Skipped, "and the claim left the mark");
        ring.stamp(2, 12, 0, false);
        assert_eq!(ring.read(2), Stamp::Sent(12), "a skipped message holds no slot");
        ring.skip(4, 0, false);
        assert_eq!(ring.read(4), Stamp::Missing, "message 2 is still queued: 4 stays unmarked");
        ring.skip(4, 3, false);
        assert_eq!(ring.read(4), Stamp::Skipped);
        // A receive of message 6 that overtakes its send claims the slot over an older
        // mark; the untimed send then leaves the claim.
        assert_eq!(ring.claim(6, 70), None);
        ring.skip(6, 7, false);
        assert_eq!(ring.stamp(6, 60, 7, false), Some(70), "the untimed send left the claim (a timed one pairs it)");
        ring.skip(8, 0, true);
        assert_eq!(ring.claim(6, 90), None, "a later skipped message owns the slot");
    }

    #[test]
    fn the_latest_stamp_says_skipped() {
        let ring = Ring::new(1);
        assert_eq!(ring.latest(), Stamp::Missing);
        ring.stamp(0, 10, 0, true);
        assert_eq!(ring.latest(), Stamp::Sent(10));
        ring.skip(1, 0, true);
        assert_eq!(ring.latest(), Stamp::Skipped);
    }

    #[test]
    fn sizes_to_capacity() {
        assert_eq!(Ring::new(0).slots.len(), 1);
        assert_eq!(Ring::new(100).slots.len(), 128);
        assert_eq!(Ring::new(usize::MAX).slots.len(), MAX_SLOTS);
    }
}
