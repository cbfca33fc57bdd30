//! Two threads with one name and very different loads, for the console's Threads
//! tab (tests/console_tmux.rs): one `twin` spins in a measured function, the other
//! `twin` sleeps. Runs for the number of seconds given as the first argument
//! (default 20), then exits.

use std::time::{Duration, Instant};

#[hotpath::measure]
fn spin(round: u64) -> u64 {
    (0..10_000u64).fold(round, |a, i| std::hint::black_box(a.rotate_left(3) ^ i))
}

#[hotpath::measure]
fn nap() {
    std::thread::sleep(Duration::from_millis(20));
}

#[hotpath::main]
fn main() {
    let seconds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let end = Instant::now() + Duration::from_secs(seconds);
    let twin = |work: fn(u64)| {
        std::thread::Builder::new()
            .name("twin".into())
            .spawn(move || {
                let mut round = 0;
                while Instant::now() < end {
                    work(round);
                    round += 1;
                }
            })
            .expect("twin starts")
    };
    let busy = twin(|round| {
        std::hint::black_box(spin(round));
    });
    let idle = twin(|_| nap());
    let _ = (busy.join(), idle.join());
}
