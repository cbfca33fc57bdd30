//! Capacity transparency, std: the same operation sequences on a `channel!`-wrapped and
//! an unwrapped `std::sync::mpsc` channel give the same result at every step (values,
//! `Full`/`Disconnected`/`Timeout` errors, blocking and closing).

use std::sync::mpsc::{channel, sync_channel};
use std::time::Duration;

#[macro_use]
mod common;

use common::rec;

#[test]
fn unbounded_channel() {
    let log = same_behaviour!(channel::<u32>(), hotpath::channel!(channel::<u32>()), |tx, rx, log| {
        rec(&mut log, tx.send(1));
        rec(&mut log, tx.clone().send(2));
        rec(&mut log, rx.try_recv());
        rec(&mut log, rx.recv());
        rec(&mut log, rx.try_recv());
        rec(&mut log, rx.recv_timeout(Duration::from_millis(1)));
        for i in 10..15 {
            rec(&mut log, tx.send(i));
        }
        rec(&mut log, rx.try_iter().collect::<Vec<_>>());
        rec(&mut log, tx.send(20));
        drop(tx);
        rec(&mut log, rx.iter().collect::<Vec<_>>());
        rec(&mut log, rx.recv());
        rec(&mut log, rx.try_recv());
        rec(&mut log, rx.recv_timeout(Duration::from_millis(1)));
    });
    assert!(log.contains(&"Err(Disconnected)".to_string()) && log.contains(&"Err(Timeout)".to_string()), "{log:?}");
}

#[test]
fn unbounded_send_after_receiver_dropped() {
    same_behaviour!(channel::<String>(), hotpath::channel!(channel::<String>()), |tx, rx, log| {
        rec(&mut log, tx.send("kept".into()));
        drop(rx);
        rec(&mut log, tx.send("lost".into()));
    });
}

#[test]
fn bounded_capacity_and_full() {
    let log = same_behaviour!(sync_channel::<u32>(2), hotpath::channel!(sync_channel::<u32>(2)), |tx, rx, log| {
        rec(&mut log, tx.try_send(1));
        rec(&mut log, tx.send(2));
        rec(&mut log, tx.try_send(3)); // full at exactly 2
        rec(&mut log, rx.recv());
        rec(&mut log, tx.try_send(3));
        rec(&mut log, tx.try_send(4));
        rec(&mut log, rx.try_iter().collect::<Vec<_>>());
        rec(&mut log, tx.try_send(5));
        drop(rx);
        rec(&mut log, tx.try_send(6)); // disconnected
        rec(&mut log, tx.send(7));
    });
    assert_eq!(log[2], "Err(TrySendError::Full(..))");
    assert_eq!(log[8..], ["Err(TrySendError::Disconnected(..))", "Err(SendError { .. })"]);
}

#[test]
fn rendezvous_channel_blocks_until_received() {
    let log = same_behaviour!(sync_channel::<u32>(0), hotpath::channel!(sync_channel::<u32>(0)), |tx, rx, log| {
        rec(&mut log, tx.try_send(1)); // nobody receiving: full
        let receiver = std::thread::spawn(move || (rx.recv(), rx.recv(), rx.recv()));
        rec(&mut log, tx.send(2));
        rec(&mut log, tx.send(3));
        drop(tx);
        rec(&mut log, receiver.join().unwrap());
    });
    assert_eq!(log, ["Err(TrySendError::Full(..))", "Ok(())", "Ok(())", "(Ok(2), Ok(3), Err(RecvError))"]);
}

#[test]
fn bounded_send_blocks_until_room_then_succeeds() {
    let log = same_behaviour!(sync_channel::<u32>(1), hotpath::channel!(sync_channel::<u32>(1)), |tx, rx, log| {
        rec(&mut log, tx.send(1));
        let receiver = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            rx.iter().collect::<Vec<_>>()
        });
        for i in 2..6 {
            rec(&mut log, tx.send(i)); // waits for the receiver each time
        }
        drop(tx);
        rec(&mut log, receiver.join().unwrap());
    });
    assert_eq!(log.last().unwrap(), "[1, 2, 3, 4, 5]");
}

#[test]
fn owned_receiver_iterates_to_the_end() {
    same_behaviour!(channel::<u8>(), hotpath::channel!(channel::<u8>()), |tx, rx, log| {
        for i in 0..3 {
            rec(&mut log, tx.send(i));
        }
        drop(tx);
        rec(&mut log, rx.into_iter().collect::<Vec<_>>());
    });
}
