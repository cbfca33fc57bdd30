//! Ends in the way named by its first argument: `return`, `panic`, `exit`, `error`
//! (main returns `Err` through `?`) or `wait` (loops until a signal arrives).

use std::time::Duration;

#[hotpath::measure]
fn work(n: u64) -> u64 {
    (0..n).fold(0, |a, b| a ^ b.wrapping_mul(31))
}

#[hotpath::measure]
fn fallible(fail: bool) -> Result<u64, String> {
    if fail {
        return Err("requested failure".into());
    }
    Ok(work(10))
}

#[hotpath::main(percentiles = [50, 95, 99.9])]
fn main() -> Result<(), String> {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "return".into());
    for _ in 0..100 {
        std::hint::black_box(work(1000));
    }
    match mode.as_str() {
        "panic" => panic!("requested panic"),
        "exit" => std::process::exit(3),
        "error" => {
            fallible(true)?;
        }
        "wait" => {
            println!("ready");
            loop {
                std::thread::sleep(Duration::from_millis(10));
                work(10);
            }
        }
        _ => {
            fallible(false)?;
        }
    }
    Ok(())
}
