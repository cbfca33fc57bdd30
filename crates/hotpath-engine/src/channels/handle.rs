//! The handles the wrapped halves of a channel hold: each counts as a live sender or
//! receiver of its instance, and the last one dropped hands the instance back to its
//! entry, which folds its counts and frees it.

use std::sync::Arc;

use super::entry::{ChannelEntry, ChannelSite};
use super::instance::{Flavor, Instance};
use crate::entries::Entry;
use crate::memory;

/// Wraps a new channel carrying `T` at `site`: its entry, a fresh instance, and one
/// handle for each half that exists.
pub(crate) fn open<T>(
    site: &'static ChannelSite,
    kind: &'static str,
    capacity: Option<usize>,
    flavor: Flavor,
) -> (Tx, Rx) {
    let entry = site.entry_of::<T>(|| ChannelEntry::new(kind, capacity.map(|c| c as u64)));
    let instance = memory::untracked(|| {
        let instance = Arc::new(Instance::new(flavor, capacity, entry.latency, entry.blocked));
        entry.attach(Arc::clone(&instance));
        instance
    });
    let shared = Shared { instance, entry };
    (Tx::new(&shared), Rx::new(&shared))
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
pub(crate) struct Tx(Shared);

impl Tx {
    fn new(shared: &Shared) -> Self {
        Self(shared.join(true))
    }

    /// A receiver of the same instance (broadcast and watch `subscribe`).
    #[cfg(feature = "tokio")]
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
        &self.0.instance
    }
}

impl Drop for Tx {
    fn drop(&mut self) {
        self.0.leave(true);
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
