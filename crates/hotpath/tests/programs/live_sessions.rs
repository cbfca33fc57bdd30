//! Two sessions one after the other in one process, served by one live server: the
//! first calls `step` 40 times, the second 25 times. Each waits for a line on standard
//! input before it ends, so a test can scrape `/metrics` in each. Both builders set the
//! process label `service=jobs`, and `le`, which is refused with a warning. A channel
//! made in the first session carries 3 messages there and 2 in the second.

use std::io::BufRead;
use std::sync::mpsc;

use hotpath::wrap::std::sync::mpsc::{Receiver, Sender};

#[hotpath::measure]
fn step(i: u64) -> u64 {
    std::hint::black_box(i.wrapping_mul(3))
}

fn session(name: &'static str, calls: u64, messages: u64, jobs: &mut Option<(Sender<u64>, Receiver<u64>)>) {
    let guard =
        hotpath::HotpathGuardBuilder::new(name).metrics_label("service", "jobs").metrics_label("le", "x").build();
    for i in 0..calls {
        std::hint::black_box(step(i));
    }
    // With hotpath off `channel!` is its argument, and the closure a plain call.
    #[allow(clippy::redundant_closure)]
    let (tx, rx) = jobs.get_or_insert_with(|| hotpath::channel!(mpsc::channel::<u64>(), label = "jobs"));
    for i in 0..messages {
        tx.send(i).unwrap();
        rx.recv().unwrap();
    }
    let mut line = String::new();
    let _ = std::io::stdin().lock().read_line(&mut line);
    drop(guard);
}

fn main() {
    let mut jobs = None;
    session("live_sessions::first", 40, 3, &mut jobs);
    session("live_sessions::second", 25, 2, &mut jobs);
}
