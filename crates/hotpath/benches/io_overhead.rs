//! Cost of one `read`/`write` call through an `io!` wrapper, 64 B and 64 KiB, against
//! the same in-memory stream unwrapped. See `harness.rs` for the modes and
//! `scripts/bench` for the comparison with hotpath 0.30.3.
//!
//! cargo bench -p hotpath --bench io_overhead [--features hotpath] -- [io [OPS]|io-cpu OPS]

use std::io::{Read, Write};

#[allow(dead_code)] // the function modes are driven by the overhead bench
#[path = "support/harness.rs"]
mod harness;

fn reader(source: harness::Source) -> Box<dyn Read> {
    Box::new(hotpath::io!(source, label = "bench-read"))
}

fn writer(sink: harness::Sink) -> Box<dyn Write> {
    Box::new(hotpath::io!(sink, label = "bench-write"))
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
    let name = if cfg!(feature = "hotpath") { "this-on" } else { "this-off" };
    harness::run_io(harness::IoSubject { name, reader, writer, start });
}
