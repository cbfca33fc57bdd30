//! Cost of the Tokio runtime sampler: one sample, registration, and the throughput of
//! a Tokio workload with and without `tokio_runtime!`. See
//! `support/tokio_workload.rs` for the modes and `scripts/bench` for the comparison
//! with hotpath 0.30.3.
//!
//! cargo bench -p hotpath --bench tokio_sampler --features hotpath,tokio -- [throughput on|off|sample W]

#[path = "support/tokio_workload.rs"]
mod tokio_workload;

fn start() -> Box<dyn std::any::Any> {
    use hotpath::__private::{MainConfig, MainGuard};
    Box::new(MainGuard::start(MainConfig::new("bench").format("none")))
}

fn monitor(handle: &tokio::runtime::Handle) {
    hotpath::tokio_runtime!(handle);
}

fn main() {
    tokio_workload::run(tokio_workload::TokioSubject {
        name: "this-on",
        start,
        monitor,
        sample: Some(hotpath::__private::sample_tokio_runtimes),
        sampler_thread: "hp-tokio",
    });
}
