//! Every backend's wrappers define the backend's common non-locking, non-messaging
//! methods themselves, so calling them is no deref; reaching the backend's value
//! itself is one, counted on the row.
#![cfg(feature = "hotpath")]

mod common;

fn derefs(section: &str, name: &str) -> u64 {
    let report = common::report();
    let found = match section {
        "mutexes" => report.mutexes.unwrap().rows.iter().find(|r| r.name == name).map(|r| r.derefs),
        "rw_locks" => report.rw_locks.unwrap().rows.iter().find(|r| r.name == name).map(|r| r.derefs),
        _ => report.channels.unwrap().rows.iter().find(|r| r.name == name).map(|r| r.derefs),
    };
    found.unwrap_or_else(|| panic!("no {section} row {name}"))
}

#[test]
fn std_locks() {
    common::session();
    let mut m = hotpath::mutex!(std::sync::Mutex::new(1u8), label = "fw-std-mutex");
    let mut l = hotpath::rw_lock!(std::sync::RwLock::new(1u8), label = "fw-std-rw");
    assert!(!m.is_poisoned() && !l.is_poisoned());
    m.clear_poison();
    l.clear_poison();
    *m.get_mut().unwrap() += 1;
    *l.get_mut().unwrap() += 1;
    assert_eq!((derefs("mutexes", "fw-std-mutex"), derefs("rw_locks", "fw-std-rw")), (0, 0));
    let inner: &std::sync::Mutex<u8> = &m;
    assert_eq!(*inner.lock().unwrap(), 2);
    assert_eq!(derefs("mutexes", "fw-std-mutex"), 1);
}

#[cfg(feature = "parking_lot")]
#[test]
fn parking_lot_locks() {
    common::session();
    let mut m = hotpath::mutex!(parking_lot::Mutex::new(1u8), label = "fw-pl-mutex");
    let mut l = hotpath::rw_lock!(parking_lot::RwLock::new(1u8), label = "fw-pl-rw");
    assert!(!m.is_locked() && !l.is_locked() && !l.is_locked_exclusive());
    *m.get_mut() += 1;
    *l.get_mut() += 1;
    assert!(!m.data_ptr().is_null() && !l.data_ptr().is_null());
    assert_eq!((derefs("mutexes", "fw-pl-mutex"), derefs("rw_locks", "fw-pl-rw")), (0, 0));
}

#[cfg(feature = "async-lock")]
#[test]
fn async_lock_locks() {
    common::session();
    let mut m = hotpath::mutex!(async_lock::Mutex::new(1u8), label = "fw-al-mutex");
    let mut l = hotpath::rw_lock!(async_lock::RwLock::new(1u8), label = "fw-al-rw");
    *m.get_mut() += 1;
    *l.get_mut() += 1;
    assert_eq!((derefs("mutexes", "fw-al-mutex"), derefs("rw_locks", "fw-al-rw")), (0, 0));
}

#[cfg(feature = "crossbeam")]
#[test]
fn crossbeam_channel() {
    common::session();
    let (tx, rx) = hotpath::channel!(crossbeam_channel::bounded::<u8>(4), label = "fw-crossbeam");
    tx.send(1).unwrap();
    assert_eq!((tx.len(), tx.capacity(), tx.is_empty(), tx.is_full()), (1, Some(4), false, false));
    assert_eq!((rx.len(), rx.capacity(), rx.is_empty(), rx.is_full()), (1, Some(4), false, false));
    assert!(tx.same_channel(&tx.clone()) && rx.same_channel(&rx.clone()));
    assert_eq!(derefs("channels", "fw-crossbeam"), 0);
    let inner: &crossbeam_channel::Sender<u8> = &tx;
    inner.send(2).unwrap();
    assert_eq!(derefs("channels", "fw-crossbeam"), 1);
}

#[cfg(feature = "flume")]
#[test]
fn flume_channel() {
    common::session();
    let (tx, rx) = hotpath::channel!(flume::bounded::<u8>(4), label = "fw-flume");
    tx.send(1).unwrap();
    assert_eq!((tx.len(), tx.capacity(), tx.is_empty(), tx.is_full()), (1, Some(4), false, false));
    assert_eq!((rx.len(), rx.capacity(), rx.is_empty(), rx.is_full()), (1, Some(4), false, false));
    assert!(!tx.is_disconnected() && !rx.is_disconnected());
    assert_eq!((tx.sender_count(), tx.receiver_count(), rx.sender_count(), rx.receiver_count()), (1, 1, 1, 1));
    assert!(tx.same_channel(&tx.clone()) && rx.same_channel(&rx.clone()));
    assert_eq!(derefs("channels", "fw-flume"), 0);
}

#[cfg(feature = "async-channel")]
#[test]
fn async_channel_channel() {
    common::session();
    let (tx, rx) = hotpath::channel!(async_channel::bounded::<u8>(4), label = "fw-async-channel");
    tx.try_send(1).unwrap();
    assert_eq!((tx.len(), tx.capacity(), tx.is_empty(), tx.is_full()), (1, Some(4), false, false));
    assert_eq!((rx.len(), rx.capacity(), rx.is_empty(), rx.is_full()), (1, Some(4), false, false));
    assert_eq!((tx.sender_count(), tx.receiver_count(), rx.sender_count(), rx.receiver_count()), (1, 1, 1, 1));
    assert!(tx.same_channel(&tx.clone()) && rx.same_channel(&rx.clone()));
    assert!(!tx.is_closed() && rx.close() && rx.is_closed() && !tx.close());
    assert_eq!(derefs("channels", "fw-async-channel"), 0);
}

#[cfg(feature = "tokio")]
#[test]
fn tokio_channels_and_locks() {
    common::session();
    let (tx, mut rx) = hotpath::channel!(tokio::sync::mpsc::channel::<u8>(4), label = "fw-tokio-mpsc");
    tx.try_send(1).unwrap();
    assert_eq!((tx.capacity(), tx.max_capacity(), tx.is_closed()), (3, 4, false));
    assert_eq!((tx.strong_count(), tx.weak_count()), (1, 0));
    assert!(tx.same_channel(&tx.clone()));
    assert_eq!((rx.len(), rx.is_empty(), rx.capacity(), rx.max_capacity()), (1, false, 3, 4));
    rx.close();
    assert!(rx.is_closed());
    let (utx, mut urx) = hotpath::channel!(tokio::sync::mpsc::unbounded_channel::<u8>(), label = "fw-tokio-unbounded");
    assert!(!utx.is_closed() && utx.same_channel(&utx.clone()) && utx.strong_count() == 1 && utx.weak_count() == 0);
    assert_eq!((urx.len(), urx.is_empty(), urx.is_closed()), (0, true, false));
    urx.close();
    let (btx, brx) = hotpath::channel!(tokio::sync::broadcast::channel::<u8>(4), label = "fw-tokio-broadcast");
    assert_eq!((btx.len(), btx.is_empty(), btx.receiver_count()), (0, true, 1));
    assert!(btx.same_channel(&btx.clone()));
    assert_eq!((brx.len(), brx.is_empty(), brx.is_closed()), (0, true, false));
    assert!(brx.same_channel(&brx.resubscribe()));
    assert_eq!((btx.strong_count(), btx.weak_count()), (1, 0));
    let (wtx, mut wrx) = hotpath::channel!(tokio::sync::watch::channel(5u8), label = "fw-tokio-watch");
    assert_eq!((*wtx.borrow(), *wrx.borrow(), wtx.receiver_count()), (5, 5, 1));
    assert!(!wtx.is_closed() && !wrx.is_closed() && wtx.same_channel(&wtx));
    assert!(wrx.same_channel(&wrx.clone()) && !wrx.has_changed().unwrap());
    wrx.mark_changed();
    wrx.mark_unchanged();
    assert_eq!(*wrx.borrow_and_update(), 5);
    let (mut otx, mut orx) = hotpath::channel!(tokio::sync::oneshot::channel::<u8>(), label = "fw-tokio-oneshot");
    assert!(!otx.is_closed());
    orx.close();
    // `closed()`, which programs await to notice a gone receiver, is the wrapper's own.
    drop((rx, urx, wrx, orx));
    tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
        tx.closed().await;
        utx.closed().await;
        wtx.closed().await;
        otx.closed().await;
    });
    let mut m = hotpath::mutex!(tokio::sync::Mutex::new(1u8), label = "fw-tokio-mutex");
    let mut l = hotpath::rw_lock!(tokio::sync::RwLock::new(1u8), label = "fw-tokio-rw");
    *m.get_mut() += 1;
    *l.get_mut() += 1;
    for name in ["fw-tokio-mpsc", "fw-tokio-unbounded", "fw-tokio-broadcast", "fw-tokio-watch", "fw-tokio-oneshot"] {
        assert_eq!(derefs("channels", name), 0, "{name}");
    }
    assert_eq!((derefs("mutexes", "fw-tokio-mutex"), derefs("rw_locks", "fw-tokio-rw")), (0, 0));
}

#[cfg(feature = "futures")]
#[test]
fn futures_channels() {
    common::session();
    let (mut tx, mut rx) = hotpath::channel!(futures_channel::mpsc::channel::<u8>(4), label = "fw-futures-mpsc");
    assert!(!tx.is_closed() && tx.same_receiver(&tx.clone()));
    tx.disconnect();
    tx.close_channel();
    rx.close();
    let (mut utx, mut urx) =
        hotpath::channel!(futures_channel::mpsc::unbounded::<u8>(), label = "fw-futures-unbounded");
    assert_eq!((utx.len(), utx.is_empty(), utx.is_closed()), (0, true, false));
    assert!(utx.same_receiver(&utx.clone()));
    utx.close_channel();
    utx.disconnect();
    urx.close();
    let (otx, mut orx) = hotpath::channel!(futures_channel::oneshot::channel::<u8>(), label = "fw-futures-oneshot");
    assert!(!otx.is_canceled());
    orx.close();
    for name in ["fw-futures-mpsc", "fw-futures-unbounded", "fw-futures-oneshot"] {
        assert_eq!(derefs("channels", name), 0, "{name}");
    }
}
