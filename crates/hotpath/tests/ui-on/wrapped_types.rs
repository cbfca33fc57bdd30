//! A wrapped value used where the backend's own type is expected: the message names
//! the `hotpath::wrap` path to write instead (references still deref to the backend's
//! half, so `&tx` passes where `&Sender<Job>` is expected).
struct Job;

fn submit(tx: &std::sync::mpsc::Sender<Job>) {
    let _ = tx.send(Job);
}

fn keep(_tx: tokio::sync::mpsc::Sender<Job>) {}

fn main() {
    let (tx, _rx) = hotpath::channel!(std::sync::mpsc::channel::<Job>());
    submit(&tx);
    let (tx, _rx) = hotpath::channel!(tokio::sync::mpsc::channel::<Job>(4));
    keep(tx);
    let m: std::sync::Mutex<u8> = hotpath::mutex!(std::sync::Mutex::new(0u8));
    let _ = m;
}
