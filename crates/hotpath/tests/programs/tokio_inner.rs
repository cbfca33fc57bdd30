//! `#[hotpath::main]` above `#[tokio::main]`: the guard lives inside the async body.

#[hotpath::measure]
async fn fetch(i: u64) -> u64 {
    tokio::task::yield_now().await;
    i * 2
}

#[hotpath::main(format = "json")]
#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let handles: Vec<_> = (0..20).map(|i| tokio::spawn(fetch(i))).collect();
    for h in handles {
        h.await.unwrap();
    }
}
