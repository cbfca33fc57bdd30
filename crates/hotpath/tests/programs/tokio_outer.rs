//! `#[tokio::main]` above `#[hotpath::main]`: tokio expands first, hotpath wraps the sync main.

#[hotpath::measure]
async fn fetch(i: u64) -> u64 {
    tokio::task::yield_now().await;
    i * 2
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
#[hotpath::main(format = "json")]
async fn main() {
    let handles: Vec<_> = (0..20).map(|i| tokio::spawn(fetch(i))).collect();
    for h in handles {
        h.await.unwrap();
    }
}
