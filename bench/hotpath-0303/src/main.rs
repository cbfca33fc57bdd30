//! hotpath 0.30.3 under the harness of crates/hotpath/benches/support/harness.rs.

#[path = "../../../crates/hotpath/benches/support/harness.rs"]
mod harness;

#[hotpath::measure]
#[inline(never)]
fn measured(x: u64) -> u64 {
    std::hint::black_box(x)
}

#[cfg(feature = "alloc")]
#[global_allocator]
static ALLOCATOR: hotpath::CountingAllocator<std::alloc::System> = hotpath::CountingAllocator::with(std::alloc::System);

#[hotpath::measure]
#[inline(never)]
fn measured_alloc_pairs(n: u64) -> u64 {
    harness::alloc_pairs(n)
}

#[hotpath::measure]
#[inline(never)]
fn measured_work(rounds: u64) -> u64 {
    harness::work(rounds)
}

fn start() -> Box<dyn std::any::Any> {
    Box::new(hotpath::HotpathGuardBuilder::new("bench").format(hotpath::Format::None).build())
}

fn main() {
    let name = if cfg!(feature = "alloc") { "hotpath-0.30.3-alloc" } else { "hotpath-0.30.3" };
    harness::run(harness::Subject {
        name,
        measured,
        start,
        measured_alloc_pairs,
        sample_threads: None,
        measured_work,
        extra: String::new,
    });
}
