//! Cost of one `#[measure]` call to an empty function, peak memory after many
//! calls, and session start-up. See `harness.rs` for the modes and
//! `scripts/bench` for the comparison with hotpath 0.30.3.
//!
//! cargo bench -p hotpath --bench overhead [--features hotpath] -- [overhead|memory N T|startup]

#[allow(dead_code)] // the I/O modes are driven by the io_overhead bench
#[path = "support/harness.rs"]
mod harness;

#[hotpath::measure]
#[inline(never)]
fn measured(x: u64) -> u64 {
    std::hint::black_box(x)
}

#[cfg(feature = "hotpath-alloc")]
#[global_allocator]
static ALLOCATOR: hotpath::__private::CountingAllocator<std::alloc::System> =
    hotpath::__private::CountingAllocator::new(std::alloc::System);

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

/// CPU sampler figures from a live snapshot, when sampling is on.
fn extra() -> String {
    #[cfg(feature = "hotpath-cpu")]
    if let Some(cpu) = hotpath::__private::snapshot().and_then(|r| r.functions_cpu) {
        return format!("samples={} unwind_ns_per_sample={}", cpu.samples, cpu.unwind_ns_per_sample);
    }
    String::new()
}

fn start() -> Box<dyn std::any::Any> {
    #[cfg(feature = "hotpath")]
    {
        use hotpath::__private::{MainConfig, MainGuard};
        Box::new(MainGuard::start(MainConfig::new("bench").format("none")))
    }
    #[cfg(not(feature = "hotpath"))]
    Box::new(())
}

fn main() {
    let name = match (cfg!(feature = "hotpath-cpu"), cfg!(feature = "hotpath-alloc"), cfg!(feature = "hotpath")) {
        _ if cfg!(feature = "hotpath-heap") => "this-heap",
        (true, _, _) => "this-cpu",
        (_, true, _) => "this-alloc",
        (_, _, true) => "this-on",
        _ => "this-off",
    };
    #[cfg(all(feature = "hotpath", feature = "threads"))]
    let sample_threads = Some(hotpath::__private::sample_threads as fn());
    #[cfg(not(all(feature = "hotpath", feature = "threads")))]
    let sample_threads = None;
    harness::run(harness::Subject {
        name,
        measured,
        start,
        measured_alloc_pairs,
        sample_threads,
        measured_work,
        extra,
    });
}
