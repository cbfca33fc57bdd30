//! Per-request cost of `axum!` and per-query cost of `sqlx_tracing_layer()`, against
//! hotpath 0.30.3 (scripts/bench services). Workload: services_workload.rs.

#[path = "../../../crates/hotpath/benches/support/services_workload.rs"]
mod workload;

use tracing_subscriber::prelude::*;

fn start() -> Box<dyn std::any::Any> {
    #[cfg(feature = "on")]
    {
        use hotpath::__private::{MainConfig, MainGuard};
        Box::new(MainGuard::start(MainConfig::new("bench").format("none")))
    }
    #[cfg(not(feature = "on"))]
    Box::new(())
}

fn layer(router: axum::Router) -> axum::Router {
    hotpath::axum!(router)
}

fn sqlx() -> tracing::Dispatch {
    tracing::Dispatch::new(tracing_subscriber::registry().with(hotpath::sqlx_tracing_layer()))
}

fn main() {
    let name = if cfg!(feature = "on") { "this" } else { "this-off" };
    workload::run(workload::ServicesSubject { name, start, layer, sqlx });
}
