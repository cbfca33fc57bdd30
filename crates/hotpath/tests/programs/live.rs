//! A program that keeps working for a while so the live server can be watched:
//! a main loop and a worker thread call measured functions until the number of
//! seconds given as the first argument (default 20) has passed, then it exits.
//! A second argument N first sets N `gauge!` keys of about 1 KB each: a large
//! report (N rows of `debug`, about 4 KB of `/metrics` text per key).

use std::time::{Duration, Instant};

#[hotpath::measure]
fn parse(line: &str) -> usize {
    line.split(',').map(str::len).sum()
}

#[hotpath::measure]
fn checksum(data: &[u8]) -> u64 {
    data.iter().fold(0u64, |a, b| a.rotate_left(5) ^ u64::from(*b))
}

#[hotpath::measure]
fn step(i: u64) -> u64 {
    let line = format!("{i},alpha,beta,{}", i * 7);
    parse(&line) as u64 + checksum(line.as_bytes())
}

#[hotpath::measure(label = "worker batch")]
fn batch(round: u64) -> u64 {
    (0..200).map(|i| checksum(&(round + i).to_le_bytes())).fold(0, u64::wrapping_add)
}

#[hotpath::main(percentiles = [50, 99])]
fn main() {
    let seconds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let gauges: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let padding = "k".repeat(1000);
    for key in 0..gauges {
        hotpath::gauge!(format!("site-{key:05}-{padding}")).set(key as f64);
    }
    let end = Instant::now() + Duration::from_secs(seconds);
    let worker = std::thread::Builder::new()
        .name("worker".into())
        .spawn(move || {
            let mut round = 0;
            while Instant::now() < end {
                std::hint::black_box(batch(round));
                round += 1;
                std::thread::sleep(Duration::from_millis(2));
            }
        })
        .expect("worker starts");
    let mut i = 0;
    while Instant::now() < end {
        std::hint::black_box(step(i));
        i += 1;
        std::thread::sleep(Duration::from_millis(1));
    }
    let _ = worker.join();
}
