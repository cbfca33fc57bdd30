//! hotpath 0.30.3's axum layer and sqlx layer under the workload of
//! crates/hotpath/benches/support/services_workload.rs.

#[path = "../../../crates/hotpath/benches/support/services_workload.rs"]
mod workload;

use tracing_subscriber::prelude::*;

fn start() -> Box<dyn std::any::Any> {
    Box::new(hotpath::HotpathGuardBuilder::new("bench").format(hotpath::Format::None).build())
}

fn layer(router: axum::Router) -> axum::Router {
    hotpath::axum!(router)
}

fn sqlx() -> tracing::Dispatch {
    tracing::Dispatch::new(tracing_subscriber::registry().with(hotpath::sqlx_tracing_layer()))
}

fn main() {
    workload::run(workload::ServicesSubject { name: "hotpath-0.30.3", start, layer, sqlx });
}
