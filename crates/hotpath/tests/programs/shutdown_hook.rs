//! A `before_shutdown` hook that ends the process itself. The first argument picks:
//!
//! - `drop-exit`: the guard is dropped; its hook calls `process::exit(7)`.
//! - `exit-first`: `main` calls `process::exit(3)` with the guard alive; the hook calls
//!   `process::exit(9)`.
//! - `exit-first-returns`: `main` calls `process::exit(3)`; the hook returns.
//! - `signal-in-hook`: the guard is dropped; its hook sends the process SIGTERM, waits
//!   200 ms, then makes its measured call and returns.

#[hotpath::measure]
fn work(n: u64) -> u64 {
    (0..n).fold(0u64, |a, b| a.wrapping_mul(31).wrapping_add(b))
}

#[hotpath::measure]
fn in_hook() -> u64 {
    work(5)
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let exits = mode == "drop-exit" || mode == "exit-first";
    let signals = mode == "signal-in-hook";
    let code = if mode == "drop-exit" { 7 } else { 9 };
    let guard = hotpath::HotpathGuardBuilder::new("shutdown_hook::main")
        .format(hotpath::Format::Json)
        .before_shutdown(move || {
            if signals {
                // SAFETY: kill(2) on our own pid.
                unsafe { libc::kill(libc::getpid(), libc::SIGTERM) };
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
            std::hint::black_box(in_hook());
            if exits {
                std::process::exit(code);
            }
        })
        .build();
    for i in 0..10 {
        std::hint::black_box(work(i));
    }
    if mode == "drop-exit" || signals {
        drop(guard); // the hook ends the process (with hotpath on)
        return;
    }
    std::process::exit(3);
}
