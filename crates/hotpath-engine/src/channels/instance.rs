//! One wrapped channel: counters shared by its senders and receivers, the latency ring
//! and the slow-consumer history. It knows nothing of its entry: the handles
//! (`handle.rs`) count its live halves and hand it back to the entry when the last goes.
//!
//! Per message a send does one `fetch_add` on the sender line, a load of the receiver
//! line, one clock read and a ring stamp; a receive does one `fetch_add` on the
//! receiver line, a ring read, one clock read and a plain store into this thread's
//! latency cell. Producers and consumers write separate cache lines. A message whose
//! latency sampling leaves untimed reads no clock on either side (`stamp.rs`).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

use super::ring::{Ring, Stamp, MAX_SLOTS};
use super::slow::{History, SAMPLE_MS};
use super::stamp::{self, SAMPLE_EVERY, UNTIMED};
use crate::record::{record_metric, Metric};
use crate::sync::Padded;
use crate::timeline::{self, Kind};
use crate::{clock, memory};

/// How messages flow, which decides how the queue and latencies are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// One queue, each message received once, in order.
    Fifo,
    /// Every receiver gets every message; receivers keep their own positions.
    #[cfg(feature = "tokio")]
    Broadcast,
    /// One value, replaced by each send; receivers see the latest.
    #[cfg(feature = "tokio")]
    Watch,
}

impl Flavor {
    /// A latest-value channel: no queue, one ring slot.
    fn is_watch(self) -> bool {
        #[cfg(feature = "tokio")]
        return self == Flavor::Watch;
        #[cfg(not(feature = "tokio"))]
        false
    }
}

#[derive(Default)]
struct TxLine {
    sent: AtomicU64,
    /// Extra queue entries: a broadcast message is queued once per receiver.
    extra_queued: AtomicU64,
    max_queue: AtomicU64,
    /// Tick at which the next slow-consumer sample is due.
    next_sample: AtomicU64,
}

#[derive(Default)]
struct RxLine {
    received: AtomicU64,
    /// Queue entries that left without being received (lagged or dropped receivers).
    extra_dequeued: AtomicU64,
}

pub(crate) struct Instance {
    flavor: Flavor,
    /// The most messages a bounded one-queue channel holds (`u64::MAX` when unbounded,
    /// unknown or not one queue). The counters can run one message per racing receiver
    /// ahead of the channel (a receive frees room before its count lands), so queue
    /// lengths are clamped to it where they are read, never on the send path.
    capacity: u64,
    /// The entry's metrics, copied in.
    latency: Metric,
    blocked: Metric,
    tx: Padded<TxLine>,
    rx: Padded<RxLine>,
    ring: Ring,
    senders: AtomicUsize,
    receivers: AtomicUsize,
    handles: AtomicUsize,
    /// Index in the entry's list of live instances; changed only under the entry's lock.
    slot: AtomicUsize,
    slow: AtomicBool,
    slow_now: AtomicBool,
    history: Mutex<History>,
}

impl Instance {
    /// A channel of `capacity` (when bounded and known), recording into the given metrics.
    pub(crate) fn new(flavor: Flavor, capacity: Option<usize>, latency: Metric, blocked: Metric) -> Self {
        let slots = if flavor.is_watch() { 1 } else { capacity.unwrap_or(MAX_SLOTS) };
        let bound = match (flavor, capacity) {
            (Flavor::Fifo, Some(capacity)) if capacity > 0 => capacity as u64,
            _ => u64::MAX,
        };
        let instance = Self {
            flavor,
            capacity: bound,
            latency,
            blocked,
            tx: Padded(TxLine::default()),
            rx: Padded(RxLine::default()),
            ring: Ring::new(slots),
            senders: AtomicUsize::new(0),
            receivers: AtomicUsize::new(0),
            handles: AtomicUsize::new(0),
            slot: AtomicUsize::new(0),
            slow: AtomicBool::new(false),
            slow_now: AtomicBool::new(false),
            history: Mutex::new(History::default()),
        };
        memory::allocated(std::mem::size_of::<Instance>() + instance.ring.heap_bytes());
        instance.tx.next_sample.store(clock::now().wrapping_add(clock::ticks_in_ms(SAMPLE_MS)), Relaxed);
        instance
    }

    /// A new handle: a sender or a receiver.
    pub(crate) fn join(&self, sender: bool) {
        let halves = if sender { &self.senders } else { &self.receivers };
        halves.fetch_add(1, Relaxed);
        self.handles.fetch_add(1, Relaxed);
    }

    /// A handle dropped; true for the last one.
    pub(crate) fn leave(&self, sender: bool) -> bool {
        let halves = if sender { &self.senders } else { &self.receivers };
        halves.fetch_sub(1, Relaxed);
        // AcqRel: the last handle sees every count the other handles made before dropping.
        self.handles.fetch_sub(1, std::sync::atomic::Ordering::AcqRel) == 1
    }

    pub(crate) fn slot(&self) -> usize {
        self.slot.load(Relaxed)
    }

    pub(crate) fn set_slot(&self, slot: usize) {
        self.slot.store(slot, Relaxed);
    }

    pub(crate) fn sent(&self) -> u64 {
        self.tx.sent.load(Relaxed)
    }

    pub(crate) fn received(&self) -> u64 {
        self.rx.received.load(Relaxed)
    }

    pub(crate) fn max_queue_len(&self) -> u64 {
        self.tx.max_queue.load(Relaxed).min(self.capacity)
    }

    /// Whether the slow-consumer rule ever held, and whether it holds now.
    pub(crate) fn slow_consumer(&self) -> (bool, bool) {
        (self.slow.load(Relaxed), self.slow_now.load(Relaxed))
    }

    /// Messages queued now (pending deliveries for broadcast; 0 for watch).
    pub(crate) fn queue_len(&self) -> u64 {
        if self.flavor.is_watch() {
            return 0;
        }
        let queued = self.tx.sent.load(Relaxed) + self.tx.extra_queued.load(Relaxed);
        let gone = self.rx.received.load(Relaxed) + self.rx.extra_dequeued.load(Relaxed);
        queued.saturating_sub(gone).min(self.capacity)
    }

    /// Every sender gone, or (for a one-queue channel) every receiver.
    pub(crate) fn is_closed(&self) -> bool {
        self.senders.load(Relaxed) == 0 || (self.flavor == Flavor::Fifo && self.receivers.load(Relaxed) == 0)
    }

    /// The word of a message about to be sent (`stamp.rs`): whether its latency is
    /// timed, and from which tick.
    #[inline(always)]
    pub(crate) fn send_word(&self) -> u64 {
        stamp::send_word(self.latency)
    }

    /// Counts one message handed to the channel with `word` ([`send_word`](Self::send_word),
    /// taken before the send call, or [`stamp::retick`]ed when a blocked send got room),
    /// queued for `deliveries` receivers (1 except for broadcast). Returns its sequence
    /// number.
    #[inline(always)]
    pub(crate) fn on_send(&self, word: u64, deliveries: u64) -> u64 {
        let seq = self.tx.sent.fetch_add(1, Relaxed);
        if timeline::on() {
            self.on_timeline(Kind::Send, stamp::exact_tick(word).unwrap_or_else(clock::now), seq);
        }
        if deliveries != 1 {
            self.tx.extra_queued.fetch_add(deliveries.wrapping_sub(1), Relaxed);
        }
        let consumed = self.rx.received.load(Relaxed);
        let overwrite = self.flavor != Flavor::Fifo;
        if word == UNTIMED {
            self.ring.skip(seq, consumed, overwrite);
        } else if let Some(received) = self.ring.stamp(seq, word, consumed, overwrite) {
            stamp::record_latency(self.latency, word, received);
        }
        let depth = if self.flavor == Flavor::Fifo { (seq + 1).saturating_sub(consumed) } else { self.queue_len() };
        if depth > self.tx.max_queue.load(Relaxed) {
            self.tx.max_queue.fetch_max(depth, Relaxed);
        }
        if let Some(tick) = stamp::exact_tick(word) {
            self.maybe_sample(tick);
        } else if seq % SAMPLE_EVERY == 0 {
            self.maybe_sample(clock::now());
        }
        seq
    }

    /// A message sent or received on the timeline. Out of line: the send and receive
    /// paths stay as short when the timeline is off.
    #[cold]
    #[inline(never)]
    fn on_timeline(&self, kind: Kind, tick: u64, seq: u64) {
        let flow = if self.flavor.is_watch() { 0 } else { self.flow(seq) };
        timeline::instant(kind, self.latency.id(), tick, flow);
    }

    /// The flow id that links message `seq`'s send to its receive on the timeline.
    #[inline]
    fn flow(&self, seq: u64) -> u64 {
        let channel = (self as *const Self as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (channel ^ seq.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)).max(1)
    }

    /// Counts one receive: of the next message in FIFO order, or of message `seq` for a
    /// broadcast receiver, or of the latest value for watch. The clock is read when
    /// there is a latency to take (or to hand to a sender that has not stamped yet).
    #[inline(always)]
    pub(crate) fn on_receive(&self, seq: Option<u64>) {
        let nth = self.rx.received.fetch_add(1, Relaxed);
        let seq = seq.unwrap_or(nth);
        let found = if self.flavor.is_watch() { self.ring.latest() } else { self.ring.read(seq) };
        if found == Stamp::Skipped {
            if timeline::on() {
                self.on_timeline(Kind::Receive, clock::now(), seq);
            }
            if nth % SAMPLE_EVERY == 0 {
                self.maybe_sample(clock::now());
            }
            return;
        }
        let now = clock::now();
        if timeline::on() {
            self.on_timeline(Kind::Receive, now, seq);
        }
        match found {
            Stamp::Sent(word) => stamp::record_latency(self.latency, word, now),
            // Overtook its sender's bookkeeping: the sender records the latency.
            Stamp::Missing if self.flavor == Flavor::Fifo => {
                if let Some(word) = self.ring.claim(nth, now) {
                    stamp::record_latency(self.latency, word, now);
                }
            }
            Stamp::Missing | Stamp::Skipped => {}
        }
        self.maybe_sample(now);
    }

    /// Queue entries that left unreceived: a lagged broadcast receiver's skipped
    /// messages, or the backlog of a receiver that was dropped.
    #[cfg(any(feature = "tokio", feature = "async-channel"))]
    pub(crate) fn on_discard(&self, count: u64) {
        self.rx.extra_dequeued.fetch_add(count, Relaxed);
    }

    /// A send that waited `ticks` on a full channel.
    pub(crate) fn on_blocked(&self, ticks: u64) {
        record_metric(self.blocked, ticks, 0);
        if timeline::on() {
            let end = clock::now();
            timeline::slice(Kind::SendWait, self.blocked.id(), end.saturating_sub(ticks), ticks, 0);
        }
    }

    #[inline(always)]
    fn maybe_sample(&self, tick: u64) {
        if tick >= self.tx.next_sample.load(Relaxed) {
            self.sample(tick);
        }
    }

    #[cold]
    #[inline(never)]
    fn sample(&self, tick: u64) {
        let due = self.tx.next_sample.load(Relaxed);
        let next = tick.wrapping_add(clock::ticks_in_ms(SAMPLE_MS));
        // One sampler per interval: whoever moves the deadline takes the sample.
        if tick < due || self.tx.next_sample.compare_exchange(due, next, Relaxed, Relaxed).is_err() {
            return;
        }
        if let Ok(mut history) = self.history.try_lock() {
            let slow = history.push(self.queue_len());
            self.slow_now.store(slow, Relaxed);
            if slow && !self.slow.swap(true, Relaxed) && timeline::on() {
                let id = self.latency.id();
                timeline::trigger::breach(timeline::trigger::Reason::SlowConsumer, || {
                    timeline::trigger::Subject::Metric(id)
                });
            }
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        memory::freed(std::mem::size_of::<Instance>() + self.ring.heap_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A receive frees room before its count lands, so a send can count one message more
    /// than a bounded channel can hold (tokio's `channel(64)` showed `Max Q 65`); the
    /// lengths read back never exceed the capacity.
    #[test]
    fn queue_lengths_never_exceed_a_bounded_capacity() {
        let channel = Instance::new(Flavor::Fifo, Some(2), Metric::new(), Metric::new());
        for _ in 0..3 {
            channel.on_send(clock::now(), 1);
        }
        assert_eq!((channel.max_queue_len(), channel.queue_len()), (2, 2));
        channel.on_receive(None);
        assert_eq!(channel.queue_len(), 2);

        let unbounded = Instance::new(Flavor::Fifo, None, Metric::new(), Metric::new());
        for _ in 0..3 {
            unbounded.on_send(clock::now(), 1);
        }
        assert_eq!((unbounded.max_queue_len(), unbounded.queue_len()), (3, 3));
    }
}
