//! One wrapped channel: counters shared by its senders and receivers, the latency ring
//! and the slow-consumer history. Handles ([`Tx`], [`Rx`]) count the live halves, so the
//! instance knows when it closes and when its last half is gone.
//!
//! Per message a send does one `fetch_add` on the sender line, a load of the receiver
//! line, one clock read and a ring stamp; a receive does one `fetch_add` on the
//! receiver line, one clock read, a ring read and a plain store into this thread's
//! latency cell. Producers and consumers write separate cache lines.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use super::entry::ChannelEntry;
use super::ring::{Ring, Stamp};
use super::slow::{History, SAMPLE_MS};
use crate::entries::{entry, short_type_name, WrapSite};
use crate::functions::record_metric;
use crate::sync::Padded;
use crate::{clock, memory};

/// How messages flow, which decides how the queue and latencies are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// One queue, each message received once, in order.
    Fifo,
    /// Every receiver gets every message; receivers keep their own positions.
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    Broadcast,
    /// One value, replaced by each send; receivers see the latest.
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    Watch,
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
    entry: &'static ChannelEntry,
    flavor: Flavor,
    tx: Padded<TxLine>,
    rx: Padded<RxLine>,
    ring: Ring,
    senders: AtomicUsize,
    receivers: AtomicUsize,
    handles: AtomicUsize,
    slow: AtomicBool,
    slow_now: AtomicBool,
    history: Mutex<History>,
}

/// Wraps a new channel carrying `T` at `site`: its entry, a fresh instance, and one
/// handle for each half that exists.
pub(crate) fn open<T>(
    site: &'static WrapSite,
    kind: &'static str,
    capacity: Option<usize>,
    flavor: Flavor,
) -> (Tx, Rx) {
    let entry =
        entry(site, std::any::type_name::<T>(), |header| ChannelEntry::new(header, kind, capacity.map(|c| c as u64)));
    let slots = match flavor {
        Flavor::Watch => 1,
        _ => capacity.unwrap_or(super::ring::MAX_SLOTS),
    };
    let instance = memory::untracked(|| {
        let instance = Arc::new(Instance {
            entry,
            flavor,
            tx: Padded(TxLine::default()),
            rx: Padded(RxLine::default()),
            ring: Ring::new(slots),
            senders: AtomicUsize::new(0),
            receivers: AtomicUsize::new(0),
            handles: AtomicUsize::new(0),
            slow: AtomicBool::new(false),
            slow_now: AtomicBool::new(false),
            history: Mutex::new(History::default()),
        });
        memory::allocated(std::mem::size_of::<Instance>() + instance.ring.heap_bytes());
        instance.tx.next_sample.store(clock::now().wrapping_add(clock::ticks_in_ms(SAMPLE_MS)), Relaxed);
        entry.attach(Arc::clone(&instance));
        instance
    });
    (Tx::new(&instance), Rx::new(&instance))
}

/// The short name of `T`, for rows.
pub(crate) fn type_label(name: &str) -> String {
    short_type_name(name)
}

impl Instance {
    pub(crate) fn sent(&self) -> u64 {
        self.tx.sent.load(Relaxed)
    }

    pub(crate) fn received(&self) -> u64 {
        self.rx.received.load(Relaxed)
    }

    pub(crate) fn max_queue_len(&self) -> u64 {
        self.tx.max_queue.load(Relaxed)
    }

    /// Whether the slow-consumer rule ever held, and whether it holds now.
    pub(crate) fn slow_consumer(&self) -> (bool, bool) {
        (self.slow.load(Relaxed), self.slow_now.load(Relaxed))
    }

    /// Messages queued now (pending deliveries for broadcast; 0 for watch).
    pub(crate) fn queue_len(&self) -> u64 {
        if self.flavor == Flavor::Watch {
            return 0;
        }
        let queued = self.tx.sent.load(Relaxed) + self.tx.extra_queued.load(Relaxed);
        let gone = self.rx.received.load(Relaxed) + self.rx.extra_dequeued.load(Relaxed);
        queued.saturating_sub(gone)
    }

    /// Every sender gone, or (for a one-queue channel) every receiver.
    pub(crate) fn is_closed(&self) -> bool {
        self.senders.load(Relaxed) == 0 || (self.flavor == Flavor::Fifo && self.receivers.load(Relaxed) == 0)
    }

    /// Counts one message handed to the channel at `tick` (read before the send call, or
    /// when a blocked send got room), queued for `deliveries` receivers (1 except for
    /// broadcast). Returns its sequence number.
    #[inline(always)]
    pub(crate) fn on_send(&self, tick: u64, deliveries: u64) -> u64 {
        let seq = self.tx.sent.fetch_add(1, Relaxed);
        if deliveries != 1 {
            self.tx.extra_queued.fetch_add(deliveries.wrapping_sub(1), Relaxed);
        }
        let consumed = self.rx.received.load(Relaxed);
        if let Some(received) = self.ring.stamp(seq, tick, consumed, self.flavor != Flavor::Fifo) {
            record_metric(self.entry.latency, received.saturating_sub(tick));
        }
        let depth = match self.flavor {
            Flavor::Fifo => (seq + 1).saturating_sub(consumed),
            _ => self.queue_len(),
        };
        if depth > self.tx.max_queue.load(Relaxed) {
            self.tx.max_queue.fetch_max(depth, Relaxed);
        }
        self.maybe_sample(tick);
        seq
    }

    /// Counts one receive: of the next message in FIFO order, or of message `seq` for a
    /// broadcast receiver, or of the latest value for watch.
    #[inline(always)]
    pub(crate) fn on_receive(&self, seq: Option<u64>) {
        let nth = self.rx.received.fetch_add(1, Relaxed);
        let now = clock::now();
        let stamp = match (self.flavor, seq) {
            (Flavor::Watch, _) => self.ring.latest().map_or(Stamp::Missing, Stamp::Sent),
            (_, Some(seq)) => self.ring.read(seq),
            (_, None) => self.ring.read(nth),
        };
        match stamp {
            Stamp::Sent(tick) => record_metric(self.entry.latency, now.saturating_sub(tick)),
            // Overtook its sender's bookkeeping: the sender records the latency.
            Stamp::Missing if self.flavor == Flavor::Fifo => {
                if let Some(tick) = self.ring.claim(nth, now) {
                    record_metric(self.entry.latency, now.saturating_sub(tick));
                }
            }
            Stamp::Missing => {}
        }
        self.maybe_sample(now);
    }

    /// Queue entries that left unreceived: a lagged broadcast receiver's skipped
    /// messages, or the backlog of a receiver that was dropped.
    #[cfg_attr(not(any(feature = "tokio", feature = "async-channel")), allow(dead_code))]
    pub(crate) fn on_discard(&self, count: u64) {
        self.rx.extra_dequeued.fetch_add(count, Relaxed);
    }

    /// A send that waited `ticks` on a full channel.
    pub(crate) fn on_blocked(&self, ticks: u64) {
        record_metric(self.entry.blocked, ticks);
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
            if slow {
                self.slow.store(true, Relaxed);
            }
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        memory::freed(std::mem::size_of::<Instance>() + self.ring.heap_bytes());
    }
}

/// A sender's share of an instance; one per wrapped sender value.
pub(crate) struct Tx(Arc<Instance>);

impl Tx {
    fn new(instance: &Arc<Instance>) -> Self {
        instance.senders.fetch_add(1, Relaxed);
        instance.handles.fetch_add(1, Relaxed);
        Self(Arc::clone(instance))
    }

    /// A receiver of the same instance (broadcast and watch `subscribe`).
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    pub(crate) fn subscribe(&self) -> Rx {
        Rx::new(&self.0)
    }
}

impl Clone for Tx {
    fn clone(&self) -> Self {
        Self::new(&self.0)
    }
}

impl std::ops::Deref for Tx {
    type Target = Instance;
    fn deref(&self) -> &Instance {
        &self.0
    }
}

impl Drop for Tx {
    fn drop(&mut self) {
        self.0.senders.fetch_sub(1, Relaxed);
        release(&self.0);
    }
}

/// A receiver's share of an instance; one per wrapped receiver value.
pub(crate) struct Rx(Arc<Instance>);

impl Rx {
    fn new(instance: &Arc<Instance>) -> Self {
        instance.receivers.fetch_add(1, Relaxed);
        instance.handles.fetch_add(1, Relaxed);
        Self(Arc::clone(instance))
    }

    /// Another receiver of the same instance (MPMC receivers are `Clone`).
    #[cfg_attr(
        not(any(feature = "tokio", feature = "crossbeam", feature = "flume", feature = "async-channel")),
        allow(dead_code)
    )]
    pub(crate) fn another(&self) -> Self {
        Self::new(&self.0)
    }
}

impl std::ops::Deref for Rx {
    type Target = Instance;
    fn deref(&self) -> &Instance {
        &self.0
    }
}

impl Drop for Rx {
    fn drop(&mut self) {
        self.0.receivers.fetch_sub(1, Relaxed);
        release(&self.0);
    }
}

/// Drops one handle; the last one folds the instance into its entry.
fn release(instance: &Arc<Instance>) {
    // AcqRel: the last handle sees every count the other handles made before dropping.
    if instance.handles.fetch_sub(1, std::sync::atomic::Ordering::AcqRel) == 1 {
        memory::untracked(|| instance.entry.retire(instance));
    }
}
