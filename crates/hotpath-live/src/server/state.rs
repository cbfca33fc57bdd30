//! What every worker of the server shares: the token, the bound address, where
//! snapshots come from, the responses rendered from them, and response counters.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use super::rendered::Rendered;
use super::snapshot::Snapshot;

/// What every worker shares.
pub(crate) struct State {
    pub(crate) token: Option<String>,
    /// The token was set but is unusable: every request gets 401.
    pub(crate) refuse_all: bool,
    pub(crate) address: SocketAddr,
    /// Where snapshots come from: the session's cache, or a fixed one in tests.
    pub(crate) source: fn() -> Option<Arc<Snapshot>>,
    /// Responses rendered from the current snapshot, shared by every client.
    pub(crate) rendered: Rendered,
    pub(crate) stats: Stats,
}

/// Responses by status class (index 1..=5 for 1xx..5xx), shown on `/metrics`.
#[derive(Default)]
pub(crate) struct Stats {
    classes: [AtomicU64; 6],
}

impl Stats {
    pub(crate) fn count(&self, status: u16) {
        if let Some(c) = self.classes.get(usize::from(status / 100)) {
            c.fetch_add(1, Relaxed);
        }
    }

    /// `(class digit, count)` for 2xx to 5xx.
    pub(crate) fn responses(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        (2..=5).map(|c| (c, self.classes[c].load(Relaxed)))
    }
}

/// Where the session's server listens, and whether it requires a token.
pub(crate) static BOUND: OnceLock<(SocketAddr, bool)> = OnceLock::new();

/// The bound address and token requirement, once the server is listening.
#[cfg(feature = "mcp")]
pub(crate) fn bound() -> Option<(SocketAddr, bool)> {
    BOUND.get().copied()
}
