//! hotpath 0.30.3 under the harness of crates/hotpath/benches/support/harness.rs.

use std::io::{Read, Write};

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

fn reader(source: harness::Source) -> Box<dyn Read> {
    Box::new(hotpath::io!(source, label = "bench-read"))
}

fn writer(sink: harness::Sink) -> Box<dyn Write> {
    Box::new(hotpath::io!(sink, label = "bench-write"))
}

fn start() -> Box<dyn std::any::Any> {
    Box::new(hotpath::HotpathGuardBuilder::new("bench").format(hotpath::Format::None).build())
}

fn main() {
    let name = if cfg!(feature = "alloc") { "hotpath-0.30.3-alloc" } else { "hotpath-0.30.3" };
    // `io` and `io-cpu` are the I/O modes; everything else goes through `run`.
    if std::env::args().nth(1).is_some_and(|mode| mode.starts_with("io")) {
        harness::run_io(harness::IoSubject { name, reader, writer, start });
        return;
    }
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
