//! What a running session holds, read by the report builder and the session alike.

use std::time::Instant;

use crate::config::{BeforeShutdown, Config};

/// A running session.
pub(crate) struct Session {
    pub(crate) id: u64,
    pub(crate) config: Config,
    pub(crate) started: Instant,
    pub(crate) started_unix_ms: u64,
    pub(crate) warnings: Vec<String>,
    pub(crate) before_shutdown: Option<BeforeShutdown>,
    /// The thread that started the session (`main`'s): its own row's self time is the
    /// wall time not spent in this thread's outermost measured calls.
    pub(crate) main_thread: hotpath_engine::ThreadMark,
}
