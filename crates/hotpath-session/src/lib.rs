//! The profiling session of hotpath: resolves the configuration (parameters, then the
//! `HOTPATH_*` overlay), starts the engine, the signal and exit hooks and the live
//! surfaces registered through [`register_live`], and writes the report once.
//! Orchestration only: measuring is the engine's (`hotpath-engine`), serving the live
//! crate's (`hotpath-live`). Not a public API: programs use the `hotpath` crate.

#![deny(missing_docs)]

mod build;
mod config;
mod end;
mod hook;
mod live;
mod output;
mod session;
mod shutdown;
#[cfg(unix)]
mod signals;
mod state;
mod timeline;

pub use config::{
    Format, MainConfig, OtlpEndpoint, OtlpSettings, SectionSpec, ServerSettings, Surface, DEFAULT_METRICS_PORT,
    DEFAULT_OTLP_INTERVAL,
};
pub use end::End;
pub use live::{register_live, register_session_ending, LiveStarter, SessionEnding};
pub use session::{snapshot, snapshot_live, snapshot_live_session, start_with_shutdown, uptime, MainGuard};
