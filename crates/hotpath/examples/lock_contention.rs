//! Lock contention.
//!
//! Four workers share a `Mutex`-protected ledger and hold it for 2 ms per update, so
//! most acquisitions find it taken and wait. A `RwLock`ed configuration is read on
//! every update and written twice; the writes wait for readers to leave.
//!
//! ```sh
//! cargo run --example lock_contention --features hotpath
//! ```

use std::sync::{Arc, Barrier, Mutex, RwLock};
use std::time::Duration;

const WORKERS: usize = 4;
const UPDATES: usize = 10;

struct Config {
    fee: u64,
}

#[hotpath::main]
fn main() {
    let ledger = Arc::new(hotpath::mutex!(Mutex::new(Vec::<u64>::new()), label = "ledger"));
    let config = Arc::new(hotpath::rw_lock!(RwLock::new(Config { fee: 1 }), label = "config"));
    let start = Arc::new(Barrier::new(WORKERS + 1));
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            let (ledger, config, start) = (Arc::clone(&ledger), Arc::clone(&config), Arc::clone(&start));
            std::thread::spawn(move || {
                start.wait();
                for i in 0..UPDATES {
                    let fee = config.read().unwrap().fee;
                    let mut entries = ledger.lock().unwrap();
                    std::thread::sleep(Duration::from_millis(2)); // work done under the lock
                    entries.push((w * UPDATES + i) as u64 * fee);
                }
            })
        })
        .collect();
    start.wait();
    for fee in [2, 3] {
        std::thread::sleep(Duration::from_millis(10));
        let mut config = config.write().unwrap();
        std::thread::sleep(Duration::from_millis(1));
        config.fee = fee;
    }
    workers.into_iter().for_each(|w| w.join().unwrap());
    println!("ledger has {} entries", ledger.lock().unwrap().len());
}
