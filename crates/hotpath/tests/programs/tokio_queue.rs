//! A queue build-up: a producer thread outside the runtime spawns 60,000 tasks a
//! second for 1.5 s; each task computes 5 × 20 µs with a yield after each burst, so
//! two workers run at most 20,000 a second. Tasks spawned from outside go through the
//! global queue, which grows the whole time. Polls stay short, so nothing else may
//! fire. Expected flag: `global_queue_growth` alone.

use std::time::{Duration, Instant};

const PER_SECOND: u64 = 60_000;

fn spin(for_: Duration) {
    let start = Instant::now();
    while start.elapsed() < for_ {
        std::hint::spin_loop();
    }
}

#[hotpath::main]
#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    hotpath::tokio_runtime!();
    let handle = tokio::runtime::Handle::current();
    let producer = std::thread::spawn(move || {
        let start = Instant::now();
        let mut spawned = 0u64;
        while start.elapsed() < Duration::from_millis(1500) {
            // Catch up to the rate, however late this thread was scheduled.
            let due = start.elapsed().as_micros() as u64 * PER_SECOND / 1_000_000;
            while spawned < due {
                handle.spawn(async {
                    for _ in 0..5 {
                        spin(Duration::from_micros(20));
                        tokio::task::yield_now().await;
                    }
                });
                spawned += 1;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        spawned
    });
    let spawned = tokio::task::spawn_blocking(move || producer.join().unwrap()).await.unwrap();
    println!("spawned={spawned}");
}
