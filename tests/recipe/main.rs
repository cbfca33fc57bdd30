//! The newcomer's program of the README's "Use it in your project" section: a Tokio
//! producer and consumer over a channel, shared totals behind a mutex, results
//! written to a file through `io!`. `scripts/test-readme` builds it against the
//! README's manifest lines, verbatim, with every feature mode the README names.

use std::io::Write;
use std::sync::Arc;

use hotpath::wrap::tokio::sync::mpsc::{Receiver, Sender};

#[derive(Debug)]
struct Job {
    id: u64,
    payload: Vec<u8>,
}

#[hotpath::measure]
async fn produce(tx: Sender<Job>, jobs: u64) {
    for id in 0..jobs {
        let payload = vec![(id % 251) as u8; 64];
        tx.send(Job { id, payload }).await.expect("the consumer is alive");
    }
}

#[hotpath::measure]
async fn consume(mut rx: Receiver<Job>, totals: Arc<hotpath::wrap::std::sync::Mutex<u64>>, out: std::path::PathBuf) {
    let mut file = hotpath::io!(std::fs::File::create(&out).expect("temp file"), label = "results");
    while let Some(job) = rx.recv().await {
        let sum: u64 = job.payload.iter().map(|&b| u64::from(b)).sum();
        *totals.lock().unwrap() += sum;
        writeln!(file, "{} {sum}", job.id).expect("write");
    }
    file.flush().expect("flush");
}

#[hotpath::main]
#[tokio::main]
async fn main() {
    hotpath::tokio_runtime!();
    let (tx, rx) = hotpath::channel!(tokio::sync::mpsc::channel::<Job>(16), label = "jobs");
    let totals = Arc::new(hotpath::mutex!(std::sync::Mutex::new(0u64), label = "totals"));
    let out = std::env::temp_dir().join(format!("hotpath-recipe-{}.txt", std::process::id()));
    let consumer = tokio::spawn(consume(rx, Arc::clone(&totals), out.clone()));
    produce(tx, 2_000).await;
    consumer.await.expect("consumer");
    println!("total {}", *totals.lock().unwrap());
    let _ = std::fs::remove_file(out);
}
