//! hotpath 0.30.3's `tokio_runtime!` under the workload of
//! crates/hotpath/benches/support/tokio_workload.rs.

#[path = "../../../crates/hotpath/benches/support/tokio_workload.rs"]
mod tokio_workload;

fn start() -> Box<dyn std::any::Any> {
    Box::new(hotpath::HotpathGuardBuilder::new("bench").format(hotpath::Format::None).build())
}

fn monitor(handle: &tokio::runtime::Handle) {
    hotpath::tokio_runtime!(handle);
}

fn main() {
    tokio_workload::run(tokio_workload::TokioSubject {
        name: "hotpath-0.30.3",
        start,
        monitor,
        sample: None,
        sampler_thread: "hp-runtime",
    });
}
