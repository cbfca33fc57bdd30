//! A channel entry: one `channel!` site and message type (or one instance, with
//! `iter = true`), with its live instances and the totals of the ones that are gone.

use std::sync::{Arc, Mutex};

use super::instance::Instance;
use crate::entries::{Entry, EntryHeader, Instrument};
use crate::functions::FnSite;
use crate::sync::lock;

static ENTRIES: Mutex<Vec<&'static ChannelEntry>> = Mutex::new(Vec::new());

#[repr(C)]
pub(crate) struct ChannelEntry {
    header: EntryHeader,
    /// Backend and flavour, such as `std::sync_channel`.
    pub(crate) kind: &'static str,
    /// Capacity of the first bounded instance, when the backend reports it.
    pub(crate) capacity: Option<u64>,
    /// Send-to-receive latencies, recorded in per-thread cells.
    pub(crate) latency: &'static FnSite,
    /// Time sends waited on a full channel.
    pub(crate) blocked: &'static FnSite,
    state: Mutex<State>,
}

// SAFETY: repr(C) with the header first; the only entry type using Instrument::Channel.
unsafe impl Entry for ChannelEntry {
    const INSTRUMENT: Instrument = Instrument::Channel;
    fn registry() -> &'static Mutex<Vec<&'static Self>> {
        &ENTRIES
    }
    fn header(&self) -> &EntryHeader {
        &self.header
    }
}

#[derive(Default)]
struct State {
    instances: u64,
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
    pub(crate) fn new(header: EntryHeader, kind: &'static str, capacity: Option<u64>) -> Self {
        Self {
            header,
            kind,
            capacity,
            latency: FnSite::metric(),
            blocked: FnSite::metric(),
            state: Mutex::new(State::default()),
        }
    }

    /// Adds a new instance (channel creation, a cold path).
    pub(crate) fn attach(&self, instance: Arc<Instance>) {
        let mut state = lock(&self.state);
        state.instances += 1;
        state.live.push(instance);
    }

    /// Folds an instance whose last handle was dropped into the retired totals.
    pub(crate) fn retire(&self, instance: &Instance) {
        let mut state = lock(&self.state);
        state.live.retain(|i| !std::ptr::eq(Arc::as_ptr(i), instance));
        let t = &mut state.retired;
        t.closed += 1;
        t.sent += instance.sent();
        t.received += instance.received();
        t.max_queue_len = t.max_queue_len.max(instance.max_queue_len());
        t.slow_consumer |= instance.slow_consumer().0;
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
