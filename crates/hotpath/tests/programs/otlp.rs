//! Pushes OTLP metrics (`HOTPATH_OTLP_ENDPOINT`, set by tests/otlp_export.rs) every
//! 200 ms, set by the builder, while `work` is called 240 times over about 1.2 s; the
//! builder's process label `service=otlp-case` becomes a resource attribute.

use std::time::Duration;

#[hotpath::measure]
fn work(i: u64) -> u64 {
    std::thread::sleep(Duration::from_millis(5));
    std::hint::black_box(i.wrapping_mul(7))
}

fn main() {
    let _guard = hotpath::HotpathGuardBuilder::new("otlp::main")
        .otlp_interval(Duration::from_millis(200))
        .metrics_label("service", "otlp-case")
        .build();
    for i in 0..240 {
        std::hint::black_box(work(i));
    }
}
