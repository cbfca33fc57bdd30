//! hotpath 0.30.3 under the harness of crates/hotpath/benches/support/harness.rs.

use std::io::{Read, Write};

#[path = "../../../crates/hotpath/benches/support/harness.rs"]
mod harness;

#[hotpath::measure]
#[inline(never)]
fn measured(x: u64) -> u64 {
    std::hint::black_box(x)
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
    // `io` and `io-cpu` are the I/O modes; everything else measures `#[measure]`.
    if std::env::args().nth(1).is_some_and(|mode| mode.starts_with("io")) {
        harness::run_io(harness::IoSubject { name: "hotpath-0.30.3", reader, writer, start });
    } else {
        harness::run(harness::Subject { name: "hotpath-0.30.3", measured, start });
    }
}
