//! The README's "A slow request: get its timeline", runnable: a Tokio server stand-in
//! handles requests on its workers, each taking a shared lock and sending its answer
//! over a channel; request 7 is slow, over the handler's `timeline_over`, and writes
//! the timeline of the moments before it to `hotpath-timeline/`.
//!
//! cargo run -p hotpath --example slow_request --features hotpath
//!
//! `tests/timeline_recipe.rs` holds the README's handler to this file's and runs it.

use std::sync::Arc;
use std::time::Duration;

// recipe:slow-request-handler (the README shows these lines verbatim)
#[hotpath::measure(timeline_over = "50ms")]
async fn handle(user: u64) -> String {
    if user == 7 {
        tokio::time::sleep(Duration::from_millis(80)).await; // the slow one
    }
    format!("user {user}")
}
// end recipe

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
#[hotpath::main]
async fn main() {
    let sessions = Arc::new(hotpath::mutex!(tokio::sync::Mutex::new(0u64), label = "sessions"));
    let (tx, mut rx) = hotpath::channel!(tokio::sync::mpsc::channel::<String>(64), label = "answers");
    let mut requests = Vec::new();
    for user in 0..16 {
        let (sessions, tx) = (Arc::clone(&sessions), tx.clone());
        requests.push(tokio::spawn(async move {
            *sessions.lock().await += 1;
            let _ = tx.send(handle(user).await).await;
        }));
    }
    drop(tx);
    for request in requests {
        let _ = request.await;
    }
    let mut answers = 0;
    while rx.recv().await.is_some() {
        answers += 1;
    }
    println!("{answers} requests answered");
}
