//! Capacity transparency, crossbeam: bounded, zero-capacity and unbounded channels
//! behave identically wrapped and unwrapped, with several consumers too.
#![cfg(feature = "crossbeam")]

use std::time::Duration;

use crossbeam_channel::{bounded, unbounded};

#[macro_use]
mod common;

use common::rec;

#[test]
fn bounded_capacity_full_timeouts_and_closing() {
    let log = same_behaviour!(bounded::<u32>(2), hotpath::channel!(bounded::<u32>(2)), |tx, rx, log| {
        rec(&mut log, (tx.capacity(), tx.is_full()));
        rec(&mut log, tx.try_send(1));
        rec(&mut log, tx.send(2));
        rec(&mut log, (tx.try_send(3), tx.is_full(), rx.len()));
        rec(&mut log, tx.send_timeout(3, Duration::from_millis(2)));
        rec(&mut log, rx.recv());
        rec(&mut log, tx.send_timeout(4, Duration::from_millis(2)));
        rec(&mut log, rx.try_iter().collect::<Vec<_>>());
        rec(&mut log, rx.recv_timeout(Duration::from_millis(1)));
        drop(rx);
        rec(&mut log, tx.try_send(5));
        rec(&mut log, tx.send(6));
    });
    assert_eq!(log[3], "(Err(\"Full(..)\"), true, 2)");
}

#[test]
fn zero_capacity_and_unbounded() {
    same_behaviour!(bounded::<u32>(0), hotpath::channel!(bounded::<u32>(0)), |tx, rx, log| {
        rec(&mut log, tx.try_send(1));
        let consumer = std::thread::spawn(move || rx.iter().collect::<Vec<_>>());
        for i in 0..4 {
            rec(&mut log, tx.send(i));
        }
        drop(tx);
        rec(&mut log, consumer.join().unwrap());
    });
    same_behaviour!(unbounded::<String>(), hotpath::channel!(unbounded::<String>()), |tx, rx, log| {
        rec(&mut log, tx.capacity());
        for word in ["a", "b", "c"] {
            rec(&mut log, tx.send(word.to_string()));
        }
        drop(tx);
        rec(&mut log, rx.into_iter().collect::<Vec<_>>());
    });
}

#[test]
fn several_consumers_share_the_queue() {
    same_behaviour!(bounded::<u64>(8), hotpath::channel!(bounded::<u64>(8)), |tx, rx, log| {
        let consumers: Vec<_> = (0..3)
            .map(|_| {
                let rx = rx.clone();
                std::thread::spawn(move || rx.iter().sum::<u64>())
            })
            .collect();
        drop(rx);
        for i in 0..1000 {
            tx.send(i).unwrap();
        }
        drop(tx);
        rec(&mut log, consumers.into_iter().map(|c| c.join().unwrap()).sum::<u64>());
    });
}
