//! The handles the wrapped halves of a channel hold: each counts as a live sender or
//! receiver of its instance, and the last one dropped hands the instance back to its
//! entry, which folds its counts and frees it. A sender also keeps the messages it
//! sends when `log = true` was asked.

use std::fmt::Debug;
use std::sync::Arc;

use super::entry::ChannelEntry;
use super::instance::{Flavor, Instance};
use super::instrument::Wrapping;
use crate::entries::Entry;
use crate::{memory, switch};

/// Wraps a new channel carrying `T`: its entry, a fresh instance, and one handle for
/// each half that exists. `capacity` is the bound the backend reports, if any (else
/// the call's `capacity = N` is reported; latency pairing then keeps its largest ring).
pub(crate) fn open<T>(at: Wrapping<'_, T>, kind: &'static str, capacity: Option<usize>, flavor: Flavor) -> (Tx<T>, Rx) {
    let reported = capacity.or(at.capacity).map(|c| c as u64);
    let entry = at.site.entry_labelled::<T>(at.label, || ChannelEntry::new(kind, reported));
    let instance = memory::untracked(|| {
        let instance = Arc::new(Instance::new(flavor, capacity, entry.latency, entry.blocked));
        entry.attach(Arc::clone(&instance));
        instance
    });
    let shared = Shared { instance, entry };
    (Tx::new(&shared, at.log), Rx::new(&shared))
}

/// What every handle of one instance holds.
struct Shared {
    instance: Arc<Instance>,
    entry: &'static Entry<ChannelEntry>,
}

impl Shared {
    fn join(&self, sender: bool) -> Self {
        self.instance.join(sender);
        Self { instance: Arc::clone(&self.instance), entry: self.entry }
    }

    /// Drops one handle; the last one folds the instance into its entry.
    fn leave(&self, sender: bool) {
        if self.instance.leave(sender) {
            memory::untracked(|| self.entry.retire(&self.instance));
        }
    }
}

/// A sender's share of an instance; one per wrapped sender value.
pub(crate) struct Tx<T> {
    shared: Shared,
    /// `log = true`: the message as `Debug`.
    log: Option<fn(&T) -> &dyn Debug>,
}

/// The text of a message about to be sent, kept only if the send succeeds.
pub(crate) struct Note(Option<crate::logs::DebugText>);

impl<T> Tx<T> {
    fn new(shared: &Shared, log: Option<fn(&T) -> &dyn Debug>) -> Self {
        Self { shared: shared.join(true), log }
    }

    /// A receiver of the same instance (broadcast and watch `subscribe`).
    #[cfg(feature = "tokio")]
    pub(crate) fn subscribe(&self) -> Rx {
        Rx::new(&self.shared)
    }

    /// With `log = true`, the message's text, taken before the send moves it.
    #[inline(always)]
    pub(crate) fn note(&self, message: &T) -> Note {
        match self.log {
            None => Note(None),
            Some(as_debug) => Note(switch::enabled().then(|| crate::logs::debug_text(as_debug(message)))),
        }
    }

    /// Keeps a noted message: the send succeeded.
    #[inline(always)]
    pub(crate) fn sent(&self, note: Note) {
        if let Note(Some(text)) = note {
            let entry = self.shared.entry;
            entry.logs.record_text("channels", entry.name(), text);
        }
    }
}

impl<T> Tx<T> {
    /// The wrapper was dereferenced to the backend's half (see `crate::reach`).
    pub(crate) fn deref_hit(&self) {
        self.shared.entry.derefs.hit();
    }
}

impl<T> Clone for Tx<T> {
    fn clone(&self) -> Self {
        Self::new(&self.shared, self.log)
    }
}

impl<T> std::ops::Deref for Tx<T> {
    type Target = Instance;
    fn deref(&self) -> &Instance {
        &self.shared.instance
    }
}

impl<T> Drop for Tx<T> {
    fn drop(&mut self) {
        self.shared.leave(true);
    }
}

/// A receiver's share of an instance; one per wrapped receiver value.
pub(crate) struct Rx(Shared);

impl Rx {
    fn new(shared: &Shared) -> Self {
        Self(shared.join(false))
    }

    /// Another receiver of the same instance (MPMC receivers are `Clone`).
    #[cfg(any(feature = "tokio", feature = "crossbeam", feature = "flume", feature = "async-channel"))]
    pub(crate) fn another(&self) -> Self {
        Self::new(&self.0)
    }
}

impl Rx {
    /// The wrapper was dereferenced to the backend's half (see `crate::reach`).
    pub(crate) fn deref_hit(&self) {
        self.0.entry.derefs.hit();
    }
}

impl std::ops::Deref for Rx {
    type Target = Instance;
    fn deref(&self) -> &Instance {
        &self.0.instance
    }
}

impl Drop for Rx {
    fn drop(&mut self) {
        self.0.leave(false);
    }
}
