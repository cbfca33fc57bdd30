//! Tokio runtime monitoring (`tokio` feature): `tokio_runtime!()` registers a runtime,
//! a hidden `hp-tokio` thread samples its metrics every
//! `HOTPATH_TOKIO_RUNTIME_INTERVAL_MS`, and the report gets a `tokio_runtime` section
//! with per-runtime and per-worker figures, a short history and flags.
//!
//! - `site`: the `static` each macro call owns (name, registered once).
//! - `probe`: reading Tokio's metrics, stable always, unstable with `--cfg tokio_unstable`.
//! - `history`: the fixed ring of recent samples.
//! - `flags`: the rules for imbalance, global queue growth and blocking.
//! - `monitor`: one runtime's state; `sampler`: the registry and the thread.
//! - `section`: the report section.

mod flags;
mod history;
mod monitor;
mod probe;
mod sampler;
mod section;
mod site;

pub use site::TokioSite;

pub(crate) use sampler::{sample_now, start};
pub(crate) use section::section;

/// Monitors the runtime of `handle` from now on (`tokio_runtime!(&handle)`).
///
/// The first call of a site registers; later calls of the same site return at once.
pub fn monitor_tokio(site: &'static TokioSite, handle: &tokio::runtime::Handle) {
    sampler::register(site, handle);
}

/// Monitors the runtime this code runs on (`tokio_runtime!()`); outside a runtime,
/// warns once for the site and does nothing.
pub fn monitor_tokio_current(site: &'static TokioSite) {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) => sampler::register(site, &handle),
        Err(_) => {
            if site.claim() {
                crate::diag::warn(&format!(
                    "tokio_runtime!() at {} was called outside a Tokio runtime and monitors nothing; pass a handle: tokio_runtime!(&handle)",
                    site.name()
                ));
            }
        }
    }
}
