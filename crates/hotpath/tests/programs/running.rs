//! Work that never finishes a call: a producer and a consumer loop forever, one sync
//! on a thread, one async on a Tokio runtime, until the program is stopped. What a
//! live view and a report written on a signal must show as running.

use std::time::Duration;

#[hotpath::measure]
fn produce(tx: std::sync::mpsc::Sender<u64>) {
    for i in 0.. {
        if tx.send(i).is_err() {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[hotpath::measure]
async fn consume(rx: std::sync::mpsc::Receiver<u64>) {
    loop {
        while rx.try_recv().is_ok() {}
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[hotpath::main]
fn main() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new().name("producer".into()).spawn(move || produce(tx)).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    eprintln!("ready");
    runtime.block_on(consume(rx));
}
