//! A balanced workload: 64 tasks on a two-worker runtime, each computing in short
//! bursts (20 µs) and yielding in between, for 1.5 s. Work stealing keeps both
//! workers busy and the global queue empty: no flag may fire.

use std::time::{Duration, Instant};

fn spin(for_: Duration) {
    let start = Instant::now();
    while start.elapsed() < for_ {
        std::hint::spin_loop();
    }
}

#[hotpath::main]
#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    hotpath::tokio_runtime!(label = "balanced");
    let deadline = Instant::now() + Duration::from_millis(1500);
    let tasks: Vec<_> = (0..64)
        .map(|_| {
            tokio::spawn(async move {
                let mut bursts = 0u64;
                while Instant::now() < deadline {
                    spin(Duration::from_micros(20));
                    bursts += 1;
                    tokio::task::yield_now().await;
                }
                bursts
            })
        })
        .collect();
    let mut bursts = 0;
    for task in tasks {
        bursts += task.await.unwrap();
    }
    println!("bursts={bursts}");
}
