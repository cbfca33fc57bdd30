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
    harness::run(harness::Subject { name, measured, start });
}
