//! Several runtimes, registered by handle with labels: a three-worker multi-thread
//! runtime and a current-thread one (registered from two sites, one in a loop), plus
//! a `tokio_runtime!()` called outside any runtime, which warns and monitors nothing.

use std::time::Duration;

use tokio::runtime::Builder;

#[hotpath::main]
fn main() {
    hotpath::tokio_runtime!();
    let api = Builder::new_multi_thread().worker_threads(3).enable_all().build().unwrap();
    let background = Builder::new_current_thread().enable_all().build().unwrap();
    hotpath::tokio_runtime!(api.handle(), label = "api");
    hotpath::tokio_runtime!(&background.handle().clone(), label = "background");
    for _ in 0..3 {
        // A site registers the first runtime it sees; the next calls return at once.
        hotpath::tokio_runtime!(background.handle(), label = "again");
    }
    let sum: u64 = api.block_on(async {
        let tasks: Vec<_> = (0..30u64)
            .map(|i| {
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    i
                })
            })
            .collect();
        let mut sum = 0;
        for t in tasks {
            sum += t.await.unwrap();
        }
        sum
    });
    background.block_on(async {
        tokio::spawn(async { tokio::time::sleep(Duration::from_millis(50)).await }).await.unwrap();
    });
    println!("sum={sum}");
}
