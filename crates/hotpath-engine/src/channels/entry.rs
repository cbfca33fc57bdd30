//! A channel entry: one `channel!` site and message type (or one instance, with
//! `iter = true`), with its live instances and the totals of the ones that are gone.
//!
//! Live instances sit in a list where each knows its index, so closing one is a
//! swap-remove (O(1), under the entry's lock): a server making a channel per request at
//! one site pays the same per close whatever the number of open channels.

use std::sync::{Arc, Mutex};

use super::instance::Instance;
use crate::entries::{Entry, Instrument, Registry, Site};
use crate::logs::LogSlot;
use crate::reach::Derefs;
use crate::record::Metric;
use crate::sync::lock;

/// The call site `channel!` emits as a `static`. Not a public API.
pub type ChannelSite = Site<ChannelEntry>;

static REGISTRY: Registry<Entry<ChannelEntry>> = Registry::new();

/// A `channel!` entry's own data. Not a public API.
pub struct ChannelEntry {
    /// Backend and flavour, such as `std::sync_channel`.
    pub(crate) kind: &'static str,
    /// Capacity of the first bounded instance, when the backend reports it.
    pub(crate) capacity: Option<u64>,
    /// Send-to-receive latencies, recorded in per-thread cells.
    pub(crate) latency: Metric,
    /// Time sends waited on a full channel.
    pub(crate) blocked: Metric,
    /// `log = true`: the last messages sent.
    pub(crate) logs: LogSlot,
    /// Code reached a half's backend value through `Deref`: operations possibly unmeasured.
    pub(crate) derefs: Derefs,
    state: Mutex<State>,
}

impl Instrument for ChannelEntry {
    const MACRO: &'static str = "channel!";
    fn registry() -> &'static Registry<Entry<Self>> {
        &REGISTRY
    }
}

#[derive(Default)]
struct State {
    instances: u64,
    /// Open instances, each at the index it holds in its `slot`.
    live: Vec<Arc<Instance>>,
    retired: Totals,
}

/// Counts over instances; what a report row shows.
#[derive(Clone, Copy, Default)]
pub(crate) struct Totals {
    pub(crate) instances: u64,
    pub(crate) closed: u64,
    pub(crate) sent: u64,
    pub(crate) received: u64,
    /// Queued messages of open instances.
    pub(crate) queue_len: u64,
    pub(crate) max_queue_len: u64,
    pub(crate) slow_consumer: bool,
    pub(crate) slow_consumer_now: bool,
}

impl ChannelEntry {
    pub(crate) fn new(kind: &'static str, capacity: Option<u64>) -> Self {
        Self {
            kind,
            capacity,
            latency: Metric::new(),
            blocked: Metric::new(),
            logs: LogSlot::new(),
            derefs: Derefs::new(),
            state: Mutex::new(State::default()),
        }
    }

    /// Adds a new instance (channel creation).
    pub(crate) fn attach(&self, instance: Arc<Instance>) {
        let mut state = lock(&self.state);
        state.instances += 1;
        instance.set_slot(state.live.len());
        state.live.push(instance);
    }

    /// Folds an instance whose last handle was dropped into the retired totals.
    pub(crate) fn retire(&self, instance: &Instance) {
        let mut state = lock(&self.state);
        let at = instance.slot();
        let slot = match state.live.get(at) {
            Some(live) if std::ptr::eq(Arc::as_ptr(live), instance) => Some(at),
            // Not where it said: cannot happen, but a search is better than a wrong removal.
            _ => state.live.iter().position(|i| std::ptr::eq(Arc::as_ptr(i), instance)),
        };
        if let Some(slot) = slot {
            state.live.swap_remove(slot);
            if let Some(moved) = state.live.get(slot) {
                moved.set_slot(slot);
            }
        }
        let t = &mut state.retired;
        t.closed += 1;
        t.sent += instance.sent();
        t.received += instance.received();
        t.max_queue_len = t.max_queue_len.max(instance.max_queue_len());
        t.slow_consumer |= instance.slow_consumer().0;
    }

    /// Open instances (not yet retired).
    #[cfg(test)]
    fn live(&self) -> usize {
        lock(&self.state).live.len()
    }

    /// Totals over retired and live instances, at this instant.
    pub(crate) fn totals(&self) -> Totals {
        let state = lock(&self.state);
        let mut t = state.retired;
        t.instances = state.instances;
        for i in &state.live {
            t.sent += i.sent();
            t.received += i.received();
            t.max_queue_len = t.max_queue_len.max(i.max_queue_len());
            let (ever, now) = i.slow_consumer();
            t.slow_consumer |= ever;
            if i.is_closed() {
                t.closed += 1;
            } else {
                t.queue_len += i.queue_len();
                t.slow_consumer_now |= now;
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::instance::{Flavor, Instance};
    use super::ChannelEntry;
    use crate::record::Metric;

    #[test]
    fn instances_close_in_any_order_by_their_slot() {
        let entry = ChannelEntry::new("test", None);
        let open: Vec<Arc<Instance>> = (0..100)
            .map(|_| {
                let i = Arc::new(Instance::new(Flavor::Fifo, Some(1), Metric::new(), Metric::new()));
                entry.attach(Arc::clone(&i));
                i
            })
            .collect();
        // Every third, then the rest from the back: each close moves at most one other.
        for i in open.iter().step_by(3).chain(open.iter().rev()) {
            if Arc::strong_count(i) == 2 {
                entry.retire(i);
            }
            let state = crate::sync::lock(&entry.state);
            assert!(state.live.iter().enumerate().all(|(at, live)| live.slot() == at));
        }
        assert_eq!(entry.live(), 0);
        let t = entry.totals();
        assert_eq!((t.instances, t.closed), (100, 100));
    }
}
