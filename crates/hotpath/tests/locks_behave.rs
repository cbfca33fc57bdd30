//! Wrapped locks behave as unwrapped ones: the same operation sequences give the same
//! results, guards deref to the data, a panic while a guard is held poisons the lock
//! and the poisoned guard still reaches the data, `try_` calls fail the same way.

use std::sync::{Arc, Mutex, RwLock};

#[macro_use]
mod common;

use common::rec;

/// Panics on another thread while holding the lock through `$hold`.
macro_rules! poison {
    ($lock:expr, $hold:ident) => {{
        let lock = Arc::clone(&$lock);
        let result = std::thread::spawn(move || {
            let _guard = lock.$hold().unwrap();
            panic!("poisoning on purpose");
        })
        .join();
        assert!(result.is_err());
    }};
}

#[test]
fn std_mutex_poisoning_and_guards() {
    let log = same_behaviour!(
        (Arc::new(Mutex::new(vec![1u32])), ()),
        (Arc::new(hotpath::mutex!(Mutex::new(vec![1u32]))), ()),
        |m, _unit, log| {
            m.lock().unwrap().push(2);
            rec(&mut log, format!("{:?}", m.lock().unwrap()));
            {
                let _held = m.lock().unwrap();
                rec(&mut log, m.try_lock().map(|g| g.len()));
            }
            rec(&mut log, m.is_poisoned());
            poison!(m, lock);
            rec(&mut log, m.is_poisoned());
            let result = m.lock();
            rec(&mut log, result.is_err());
            let mut guard = result.unwrap_err().into_inner(); // the data survives poisoning
            guard.push(3);
            rec(&mut log, guard.clone());
            drop(guard);
            rec(&mut log, m.try_lock().map(|g| g.len()).map_err(|e| e.to_string()));
            m.clear_poison();
            rec(&mut log, m.lock().map(|g| g.len()));
            let m = Arc::try_unwrap(m).unwrap();
            rec(&mut log, m.into_inner());
        }
    );
    assert!(log.contains(&"true".to_string()) && log.iter().any(|l| l.contains("poisoned")), "{log:?}");
}

#[test]
fn std_rwlock_poisoning_and_guards() {
    let log = same_behaviour!(
        (Arc::new(RwLock::new(String::from("a"))), ()),
        (Arc::new(hotpath::rw_lock!(RwLock::new(String::from("a")))), ()),
        |l, _unit, log| {
            l.write().unwrap().push('b');
            {
                let r1 = l.read().unwrap();
                let r2 = l.try_read().unwrap(); // readers share
                rec(&mut log, format!("{r1} {r2}"));
                rec(&mut log, l.try_write().map(|_| ()).map_err(|e| e.to_string()));
            }
            poison!(l, write);
            rec(&mut log, l.read().map(|g| g.len()).map_err(|e| e.into_inner().len()));
            rec(&mut log, l.try_write().map(|_| ()).map_err(|e| e.to_string()));
            l.clear_poison();
            rec(&mut log, l.read().map(|g| g.to_uppercase()));
        }
    );
    assert_eq!(log[0], "\"ab ab\"");
}

#[cfg(feature = "parking_lot")]
#[test]
fn parking_lot_locks() {
    use std::time::Duration;
    same_behaviour!(
        (parking_lot::Mutex::new(1u8), parking_lot::RwLock::new(1u8)),
        (hotpath::mutex!(parking_lot::Mutex::new(1u8)), hotpath::rw_lock!(parking_lot::RwLock::new(1u8))),
        |m, l, log| {
            *m.lock() += 1;
            {
                let _g = m.lock();
                rec(&mut log, (m.try_lock().is_some(), m.is_locked()));
                rec(&mut log, m.try_lock_for(Duration::from_millis(1)).is_some());
            }
            rec(&mut log, *m.try_lock().unwrap());
            {
                let _r = l.read();
                rec(&mut log, (l.try_read().map(|g| *g), l.try_write().is_some()));
                rec(&mut log, l.try_write_for(Duration::from_millis(1)).is_some());
            }
            *l.write() += 5;
            rec(&mut log, (*l.read(), l.try_read_for(Duration::from_millis(1)).map(|g| *g)));
            rec(&mut log, (m.into_inner(), l.into_inner()));
        }
    );
}

#[cfg(feature = "tokio")]
#[test]
fn tokio_locks() {
    same_behaviour_async!(
        (Arc::new(tokio::sync::Mutex::new(0u32)), tokio::sync::RwLock::new(vec![0u8])),
        (
            Arc::new(hotpath::mutex!(tokio::sync::Mutex::new(0u32))),
            hotpath::rw_lock!(tokio::sync::RwLock::new(vec![0u8]))
        ),
        |m, l, log| {
            *m.lock().await += 1;
            let held = m.lock().await;
            rec(&mut log, m.try_lock().map(|_| ()).map_err(|e| e.to_string()));
            let waiter = {
                let m = Arc::clone(&m);
                tokio::spawn(async move { *m.lock().await += 10 })
            };
            tokio::task::yield_now().await;
            drop(held);
            waiter.await.unwrap();
            rec(&mut log, *m.lock().await);
            {
                let _r = l.read().await;
                rec(&mut log, (l.try_read().map(|g| g.len()).ok(), l.try_write().is_ok()));
            }
            l.write().await.push(1);
            rec(&mut log, l.read().await.clone());
            rec(&mut log, l.into_inner());
        }
    );
}

#[cfg(feature = "async-lock")]
#[test]
fn async_lock_locks() {
    same_behaviour_async!(
        (Arc::new(async_lock::Mutex::new(0u32)), async_lock::RwLock::new(vec![0u8])),
        (
            Arc::new(hotpath::mutex!(async_lock::Mutex::new(0u32))),
            hotpath::rw_lock!(async_lock::RwLock::new(vec![0u8]))
        ),
        |m, l, log| {
            *m.lock().await += 1;
            let held = m.lock().await;
            rec(&mut log, m.try_lock().map(|g| *g));
            let waiter = {
                let m = Arc::clone(&m);
                tokio::spawn(async move { *m.lock().await += 10 })
            };
            tokio::task::yield_now().await;
            drop(held);
            waiter.await.unwrap();
            rec(&mut log, *m.lock_blocking());
            {
                let _r = l.read().await;
                rec(&mut log, (l.try_read().map(|g| g.len()), l.try_write().is_some()));
                let up = l.try_upgradable_read();
                rec(&mut log, (up.map(|g| g.len()), l.try_upgradable_read().is_some()));
            }
            l.write().await.push(1);
            l.write_blocking().push(2);
            rec(&mut log, (l.read_blocking().clone(), l.upgradable_read().await.len()));
            rec(&mut log, format!("{:?}", l.try_read().unwrap()));
            rec(&mut log, l.into_inner());
        }
    );
}
