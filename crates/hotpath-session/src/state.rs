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
}
