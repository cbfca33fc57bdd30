//! Futures that are cancelled: dropped by a timeout before they complete.
//!
//! Ten fetches of a slow record (a minute) run under a 1 ms timeout and are all
//! cancelled; five fetches of a fast one (5 ms) run to completion. The report's futures section shows both `future!`
//! sites, and the measured `fetch` itself: 5 completed calls, 10 cancelled.
//!
//! ```sh
//! cargo run --example cancelled_futures --features hotpath
//! ```

use std::time::Duration;

#[hotpath::measure]
async fn fetch(id: u32, delay: Duration) -> u32 {
    tokio::time::sleep(delay).await;
    id
}

#[hotpath::main]
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut timed_out = 0;
    for id in 0..10 {
        let attempt = hotpath::future!(fetch(id, Duration::from_secs(60)), label = "fetch-with-timeout");
        if tokio::time::timeout(Duration::from_millis(1), attempt).await.is_err() {
            timed_out += 1;
        }
    }
    let mut fetched = 0;
    for id in 0..5 {
        fetched += hotpath::future!(fetch(id, Duration::from_millis(5)), label = "fetch").await;
    }
    println!("{timed_out} timed out, fetched {fetched}");
}
