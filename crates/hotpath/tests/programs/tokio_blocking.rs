//! A blocking call inside async code: one task calls `std::thread::sleep` five times
//! for 300 ms inside a single poll, holding one of two workers for 1.5 s while the
//! other has nothing to do. Expected flags: `blocking` and `imbalance`.

use std::time::Duration;

#[hotpath::main]
#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    hotpath::tokio_runtime!(label = "blocking");
    let blocker = tokio::spawn(async {
        for _ in 0..5 {
            // The mistake this program demonstrates: a blocking sleep in async code.
            std::thread::sleep(Duration::from_millis(300));
        }
    });
    blocker.await.unwrap();
    // Let the sampler see the worker publish the poll's busy time before the report.
    tokio::time::sleep(Duration::from_millis(200)).await;
}
