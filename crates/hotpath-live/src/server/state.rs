//! What every worker of the server shares: the tokens, the bound address, where
//! snapshots come from, the responses rendered from them, and response counters.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use hotpath_session::{ServerSettings, Surface};

use super::rendered::Rendered;
use super::snapshot::Snapshot;

/// What every worker shares.
pub(crate) struct State {
    pub(crate) tokens: Tokens,
    pub(crate) address: SocketAddr,
    /// Where snapshots come from: the session's cache, or a fixed one in tests.
    pub(crate) source: fn() -> Option<Arc<Snapshot>>,
    /// Responses rendered from the current snapshot, shared by every client.
    pub(crate) rendered: Rendered,
    pub(crate) stats: Stats,
    /// Process labels and counts carried across sessions, for `/metrics`.
    pub(crate) exposition: super::prometheus::Exposition,
}

/// The tokens that open each surface (any one of them), with the variable each came
/// from, resolved once from the settings (`ServerSettings::tokens_for`).
#[derive(Default)]
pub(crate) struct Tokens {
    by_surface: [Vec<(&'static str, String)>; 3],
    /// A token was set but is unusable: every request gets 401.
    pub(crate) refuse_all: bool,
}

impl Tokens {
    pub(crate) fn new(settings: &ServerSettings) -> Self {
        let of = |s: Surface| settings.tokens_for(s).into_iter().map(|(v, t)| (v, t.to_string())).collect();
        Self { by_surface: Surface::ALL.map(of), refuse_all: settings.refuse_all }
    }

    /// The tokens that open `path`; empty when it is open.
    pub(crate) fn of(&self, path: &str) -> &[(&'static str, String)] {
        &self.by_surface[Surface::of_path(path) as usize]
    }

    /// True when some request needs a token (or every one is refused).
    pub(crate) fn guarded(&self) -> bool {
        self.refuse_all || self.by_surface.iter().any(|t| !t.is_empty())
    }
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
