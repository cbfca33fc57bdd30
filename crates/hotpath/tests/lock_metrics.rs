//! What the mutexes and rw_locks sections count: acquisitions, contended acquisitions
//! (the first try found the lock taken), wait durations, sampled hold durations (every
//! contended acquisition and 1 in 16 others per thread, the first included), reads and
//! writes apart, instances per site and data type.
#![cfg(feature = "hotpath")]

use std::sync::{Arc, Barrier, Mutex, RwLock};
use std::time::Duration;

mod common;

#[test]
fn mutex_acquisitions_contention_and_hold() {
    common::session();
    let m = Arc::new(hotpath::mutex!(Mutex::new(0u64), label = "counted"));
    for _ in 0..10 {
        *m.lock().unwrap() += 1;
    }
    // One contended acquisition: another thread holds the lock (its first acquisition,
    // so its hold is timed) while this one tries.
    let barrier = Arc::new(Barrier::new(2));
    let holder = {
        let (m, barrier) = (Arc::clone(&m), Arc::clone(&barrier));
        std::thread::spawn(move || {
            let _held = m.lock().unwrap();
            barrier.wait();
            std::thread::sleep(Duration::from_millis(50));
        })
    };
    barrier.wait();
    *m.lock().unwrap() += 1;
    holder.join().unwrap();
    assert!(m.try_lock().is_ok());

    let report = common::report();
    let row = report.mutexes.unwrap().rows.into_iter().find(|r| r.name == "counted").unwrap();
    assert_eq!((row.kind.as_str(), row.data_type.as_str(), row.instances), ("std", "u64", 1));
    let lock = row.lock;
    assert_eq!(lock.acquisitions, 13, "10 + holder + waiter + try_lock");
    assert_eq!(lock.contended, 1);
    assert_eq!(lock.wait.count, 13);
    assert!(lock.wait.max_ns >= 20_000_000, "waited for the 50 ms hold: {:?}", lock.wait);
    assert_eq!(lock.wait.percentiles_ns.get(50.0), Some(0), "uncontended acquisitions wait 0");
    // Timed holds: this thread's 1st (of 12) and its contended 11th, the holder's first.
    assert_eq!(lock.hold.count, 3, "{:?}", lock.hold);
    assert!(lock.hold.max_ns >= 50_000_000, "{:?}", lock.hold);
}

#[test]
fn rwlock_reads_and_writes_apart() {
    common::session();
    let l = Arc::new(hotpath::rw_lock!(RwLock::new(vec![0u8]), label = "config"));
    for _ in 0..7 {
        assert_eq!(l.read().unwrap().len(), 1);
    }
    let barrier = Arc::new(Barrier::new(2));
    let reader = {
        let (l, barrier) = (Arc::clone(&l), Arc::clone(&barrier));
        std::thread::spawn(move || {
            let _read = l.read().unwrap();
            barrier.wait();
            std::thread::sleep(Duration::from_millis(30));
        })
    };
    barrier.wait();
    l.write().unwrap().push(1); // waits for the reader
    reader.join().unwrap();
    let report = common::report();
    let row = report.rw_locks.unwrap().rows.into_iter().find(|r| r.name == "config").unwrap();
    assert_eq!((row.reads.acquisitions, row.reads.contended), (8, 0));
    assert_eq!((row.writes.acquisitions, row.writes.contended), (1, 1));
    assert!(row.writes.wait.total_ns >= 10_000_000, "{:?}", row.writes.wait);
    assert!(row.reads.hold.max_ns >= 30_000_000, "{:?}", row.reads.hold);
}

#[test]
fn one_row_per_site_and_data_type() {
    common::session();
    fn make<T: Default>() -> hotpath::wrap::std::sync::Mutex<T> {
        hotpath::mutex!(Mutex::new(T::default()), label = "typed")
    }
    let locks: Vec<_> = (0..100).map(|_| make::<u8>()).collect();
    let strings: Vec<_> = (0..3).map(|_| make::<String>()).collect();
    locks.iter().for_each(|l| *l.lock().unwrap() += 1);
    strings[0].lock().unwrap().push('x');
    let report = common::report();
    let rows: Vec<_> = report.mutexes.unwrap().rows.into_iter().filter(|r| r.name == "typed").collect();
    let find = |t: &str| rows.iter().find(|r| r.data_type == t).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!((find("u8").instances, find("u8").lock.acquisitions), (100, 100));
    assert_eq!((find("String").instances, find("String").lock.acquisitions), (3, 1));
}

#[test]
fn hold_times_are_sampled_per_thread() {
    common::session();
    let m = Arc::new(hotpath::mutex!(Mutex::new(()), label = "sampled"));
    let worker = {
        let m = Arc::clone(&m);
        std::thread::spawn(move || (0..100).for_each(|_| drop(m.lock().unwrap())))
    };
    worker.join().unwrap();
    let report = common::report();
    let lock = report.mutexes.unwrap().rows.into_iter().find(|r| r.name == "sampled").unwrap().lock;
    assert_eq!((lock.acquisitions, lock.contended), (100, 0));
    assert_eq!(lock.hold.count, 7, "acquisitions 1, 17, 33, 49, 65, 81 and 97 were timed");
}

/// The async-lock backend: `await`ed and blocking acquisitions, contention from another
/// thread, and an upgradable read counted as a read, its upgrade as a write.
#[cfg(feature = "async-lock")]
#[test]
fn async_lock_backend_counts_like_the_others() {
    use hotpath::wrap::async_lock::RwLockUpgradableReadGuard;
    common::session();
    let m = Arc::new(hotpath::mutex!(async_lock::Mutex::new(0u64), label = "async counted"));
    let l = hotpath::rw_lock!(async_lock::RwLock::new(1u32), label = "async config");
    let barrier = Arc::new(Barrier::new(2));
    let holder = {
        let (m, barrier) = (Arc::clone(&m), Arc::clone(&barrier));
        std::thread::spawn(move || {
            let _held = m.lock_blocking();
            barrier.wait();
            std::thread::sleep(Duration::from_millis(50));
        })
    };
    barrier.wait();
    *m.lock_blocking() += 1; // waits for the holder
    holder.join().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        *m.lock().await += 1;
        assert_eq!(*l.read().await, 1);
        let up = l.upgradable_read().await;
        assert_eq!(*up, 1);
        let mut w = RwLockUpgradableReadGuard::upgrade(up).await;
        *w += 1;
        drop(w);
        let up = l.try_upgradable_read().unwrap();
        let r = l.try_read().unwrap(); // a reader next to the upgradable one
        let up = RwLockUpgradableReadGuard::try_upgrade(up).expect_err("a reader is in");
        drop(r);
        let w = RwLockUpgradableReadGuard::try_upgrade(up).map_err(|_| ()).unwrap();
        assert_eq!(*w, 2);
    });
    let report = common::report();
    let row = report.mutexes.unwrap().rows.into_iter().find(|r| r.name == "async counted").unwrap();
    assert_eq!((row.kind.as_str(), row.data_type.as_str()), ("async_lock", "u64"));
    assert_eq!((row.lock.acquisitions, row.lock.contended), (3, 1));
    assert!(row.lock.wait.max_ns >= 20_000_000, "waited for the 50 ms hold: {:?}", row.lock.wait);
    let row = report.rw_locks.unwrap().rows.into_iter().find(|r| r.name == "async config").unwrap();
    assert_eq!(row.kind, "async_lock");
    assert_eq!((row.reads.acquisitions, row.reads.contended), (4, 0), "read, 2 upgradable, try_read");
    assert_eq!((row.writes.acquisitions, row.writes.contended), (2, 0), "the two upgrades");
}
