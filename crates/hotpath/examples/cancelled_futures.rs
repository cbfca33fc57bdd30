//! Futures that are cancelled: dropped by a timeout before they complete.
//!
//! `fetch` takes 5 ms. Ten fetches run under a 1 ms timeout and are all cancelled;
//! five more run to completion. The report's futures section shows both `future!`
//! sites, and the measured `fetch` itself: 5 completed calls, 10 cancelled.
//!
//! ```sh
//! cargo run --example cancelled_futures --features hotpath
//! ```

use std::time::Duration;

#[hotpath::measure]
async fn fetch(id: u32) -> u32 {
    tokio::time::sleep(Duration::from_millis(5)).await;
    id
}

#[hotpath::main]
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut timed_out = 0;
    for id in 0..10 {
        let attempt = hotpath::future!(fetch(id), label = "fetch-with-timeout");
        if tokio::time::timeout(Duration::from_millis(1), attempt).await.is_err() {
            timed_out += 1;
        }
    }
    let mut fetched = 0;
    for id in 0..5 {
        fetched += hotpath::future!(fetch(id), label = "fetch").await;
    }
    println!("{timed_out} timed out, fetched {fetched}");
}
