//! hotpath 0.30.3 under the harness of crates/hotpath/benches/support/harness.rs.

#[path = "../../../crates/hotpath/benches/support/harness.rs"]
mod harness;

#[hotpath::measure]
#[inline(never)]
fn measured(x: u64) -> u64 {
    std::hint::black_box(x)
}

fn start() -> Box<dyn std::any::Any> {
    Box::new(hotpath::HotpathGuardBuilder::new("bench").format(hotpath::Format::None).build())
}

fn main() {
    harness::run(harness::Subject { name: "hotpath-0.30.3", measured, start });
}
