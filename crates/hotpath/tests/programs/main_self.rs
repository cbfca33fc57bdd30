//! `main`'s self time (tests/main_self_time.rs): a worker thread spends its time in a
//! measured function while `main` makes one short measured call and then waits for
//! the worker in unmeasured code.

use std::time::Duration;

#[hotpath::measure]
fn on_worker() {
    std::thread::sleep(Duration::from_millis(120));
}

#[hotpath::measure]
fn on_main() {
    std::thread::sleep(Duration::from_millis(20));
}

#[hotpath::main]
fn main() {
    let worker = std::thread::spawn(on_worker);
    on_main();
    on_main();
    worker.join().unwrap();
}
