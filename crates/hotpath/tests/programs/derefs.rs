//! Issue 26's program: a wrapped lock and channel half reached through `Deref`.
//!
//! `coerced`: functions written for the backend's types (`&std::sync::Mutex<u64>`,
//! `&mpsc::Sender<u64>`) are called 47 times with references to the wrappers, which
//! deref coercion accepts; every lock and send they make is the inner one's. Any other
//! argument: the same functions take the `hotpath::wrap` types, and the wrappers'
//! non-locking methods (`is_poisoned`, `get_mut`, `clear_poison`) are used as well.

use std::sync::{mpsc, Arc, Mutex, RwLock};

fn update(total: &Mutex<u64>) {
    *total.lock().unwrap() += 1;
}

fn read_config(config: &RwLock<u8>) -> u8 {
    *config.read().unwrap()
}

fn report_to(tx: &mpsc::Sender<u64>, value: u64) {
    tx.send(value).unwrap();
}

fn update_wrapped(total: &hotpath::wrap::std::sync::Mutex<u64>) {
    *total.lock().unwrap() += 1;
}

fn read_config_wrapped(config: &hotpath::wrap::std::sync::RwLock<u8>) -> u8 {
    *config.read().unwrap()
}

fn report_to_wrapped(tx: &hotpath::wrap::std::sync::mpsc::Sender<u64>, value: u64) {
    tx.send(value).unwrap();
}

#[hotpath::main]
fn main() {
    let coerced = std::env::args().nth(1).as_deref() == Some("coerced");
    let total = Arc::new(hotpath::mutex!(Mutex::new(0u64), label = "total"));
    let mut config = hotpath::rw_lock!(RwLock::new(3u8), label = "config");
    let (tx, rx) = hotpath::channel!(mpsc::channel::<u64>(), label = "results");
    *total.lock().unwrap() += 1;
    let mut read = 0;
    for i in 0..47 {
        if coerced {
            update(&total);
            read += read_config(&config);
            report_to(&tx, i);
        } else {
            update_wrapped(&total);
            read += read_config_wrapped(&config);
            report_to_wrapped(&tx, i);
        }
    }
    // Methods the wrappers define themselves: no deref.
    assert!(!total.is_poisoned() && !config.is_poisoned());
    total.clear_poison();
    *config.get_mut().unwrap() += 1;
    drop(tx);
    let received = rx.iter().count();
    println!("total {} read {read} received {received}", *total.lock().unwrap());
}
