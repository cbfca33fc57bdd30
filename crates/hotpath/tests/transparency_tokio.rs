//! Capacity transparency, tokio: mpsc (bounded and unbounded), oneshot, broadcast and
//! watch behave identically wrapped and unwrapped under the same operation sequences.
#![cfg(feature = "tokio")]

use std::time::Duration;

use tokio::sync::{broadcast, mpsc, oneshot, watch};

#[macro_use]
mod common;

use common::rec;

#[test]
fn bounded_mpsc_capacity_full_and_closing() {
    let log =
        same_behaviour_async!(mpsc::channel::<u32>(2), hotpath::channel!(mpsc::channel::<u32>(2)), |tx, rx, log| {
            let mut rx = rx;
            rec(&mut log, (tx.capacity(), tx.max_capacity()));
            rec(&mut log, tx.try_send(1));
            rec(&mut log, tx.send(2).await);
            rec(&mut log, tx.try_send(3)); // full at exactly 2
            rec(&mut log, tx.try_reserve().map(|_| ()));
            rec(&mut log, (tx.capacity(), rx.len()));
            rec(&mut log, rx.recv().await);
            let permit = tx.reserve().await.unwrap();
            rec(&mut log, tx.try_send(4));
            permit.send(5);
            rec(&mut log, rx.try_recv());
            rec(&mut log, rx.try_recv());
            rec(&mut log, rx.try_recv());
            let owned = tx.clone().reserve_owned().await.unwrap();
            let back = owned.send(6);
            rec(&mut log, back.send(7).await);
            let mut buffer = Vec::new();
            rec(&mut log, (rx.recv_many(&mut buffer, 10).await, buffer));
            rec(&mut log, tx.is_closed());
            drop(tx);
            drop(back);
            rec(&mut log, rx.recv().await);
            rec(&mut log, rx.try_recv());
        });
    assert_eq!(log[3], "Err(\"Full(..)\")");
    assert!(log.iter().any(|l| l == "Err(Disconnected)"), "{log:?}");
}

#[test]
fn bounded_mpsc_send_waits_for_room() {
    let log =
        same_behaviour_async!(mpsc::channel::<u32>(1), hotpath::channel!(mpsc::channel::<u32>(1)), |tx, rx, log| {
            let mut rx = rx;
            let consumer = tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(10)).await;
                let mut got = Vec::new();
                while let Some(v) = rx.recv().await {
                    got.push(v);
                }
                got
            });
            for i in 0..5 {
                rec(&mut log, tx.send(i).await);
            }
            drop(tx);
            rec(&mut log, consumer.await.unwrap());
        });
    assert_eq!(log.last().unwrap(), "[0, 1, 2, 3, 4]");
}

#[test]
fn bounded_mpsc_send_after_receiver_dropped() {
    same_behaviour_async!(mpsc::channel::<String>(4), hotpath::channel!(mpsc::channel::<String>(4)), |tx, rx, log| {
        drop(rx);
        rec(&mut log, tx.send("a".into()).await);
        rec(&mut log, tx.try_send("b".into()));
        rec(&mut log, tx.reserve().await.map(|_| ()));
        rec(&mut log, tx.is_closed());
    });
}

#[test]
fn unbounded_mpsc() {
    same_behaviour_async!(
        mpsc::unbounded_channel::<u8>(),
        hotpath::channel!(mpsc::unbounded_channel::<u8>()),
        |tx, rx, log| {
            let mut rx = rx;
            for i in 0..100 {
                rec(&mut log, tx.send(i));
            }
            rec(&mut log, rx.len());
            rec(&mut log, rx.recv().await);
            rx.close();
            rec(&mut log, tx.send(200));
            let mut rest = Vec::new();
            while let Some(v) = rx.recv().await {
                rest.push(v);
            }
            rec(&mut log, rest);
            rec(&mut log, rx.try_recv());
        }
    );
}

#[test]
fn oneshot() {
    same_behaviour_async!(oneshot::channel::<u32>(), hotpath::channel!(oneshot::channel::<u32>()), |tx, rx, log| {
        let mut rx = rx;
        rec(&mut log, rx.try_recv());
        rec(&mut log, tx.is_closed());
        rec(&mut log, tx.send(7));
        rec(&mut log, rx.await);
    });
    same_behaviour_async!(oneshot::channel::<u32>(), hotpath::channel!(oneshot::channel::<u32>()), |tx, rx, log| {
        drop(rx);
        rec(&mut log, tx.send(8)); // the value comes back
    });
    same_behaviour_async!(oneshot::channel::<u32>(), hotpath::channel!(oneshot::channel::<u32>()), |tx, rx, log| {
        drop(tx);
        rec(&mut log, rx.await);
    });
}

#[test]
fn broadcast_lag_subscribe_and_closing() {
    let log = same_behaviour_async!(
        broadcast::channel::<u32>(2),
        hotpath::channel!(broadcast::channel::<u32>(2)),
        |tx, rx, log| {
            let mut rx = rx;
            for i in 0..3 {
                rec(&mut log, tx.send(i)); // 3 into capacity 2: rx lags
            }
            let mut late = tx.subscribe();
            rec(&mut log, tx.send(3));
            rec(&mut log, (tx.len(), tx.receiver_count()));
            rec(&mut log, rx.recv().await);
            rec(&mut log, rx.recv().await);
            rec(&mut log, rx.try_recv());
            rec(&mut log, rx.try_recv());
            rec(&mut log, late.try_recv());
            rec(&mut log, late.try_recv());
            drop(rx);
            drop(late);
            rec(&mut log, tx.send(9));
            let mut again = tx.subscribe();
            drop(tx);
            rec(&mut log, again.recv().await);
        }
    );
    assert!(log.iter().any(|l| l.contains("Lagged(2)")), "{log:?}");
}

#[test]
fn watch_latest_value_and_closing() {
    same_behaviour_async!(watch::channel::<u32>(0), hotpath::channel!(watch::channel::<u32>(0)), |tx, rx, log| {
        let mut rx = rx;
        rec(&mut log, rx.has_changed());
        rec(&mut log, tx.send(1));
        rec(&mut log, tx.send(2));
        rec(&mut log, rx.changed().await);
        rec(&mut log, *rx.borrow_and_update());
        tx.send_modify(|v| *v += 10);
        rec(&mut log, rx.wait_for(|v| *v > 10).await.map(|v| *v));
        rec(&mut log, tx.send_replace(20));
        let mut other = rx.clone();
        rec(&mut log, other.changed().await);
        drop(tx);
        rec(&mut log, rx.changed().await);
    });
}
