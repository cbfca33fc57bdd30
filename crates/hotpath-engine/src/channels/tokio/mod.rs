//! `tokio::sync` channels (feature `tokio`).

pub mod broadcast;
pub mod mpsc;
pub mod oneshot;
pub mod watch;
