//! Capacity transparency for the other backends: `futures::channel` (mpsc through its
//! `Sink`/`Stream` faces, oneshot), flume (sync and async) and async-channel behave
//! identically wrapped and unwrapped under the same operation sequences.
#![cfg(any(feature = "futures", feature = "flume", feature = "async-channel"))]

use std::future::poll_fn;
use std::pin::Pin;
use std::time::Duration;

#[macro_use]
mod common;

use common::rec;

#[allow(dead_code)]
async fn next<S: futures_core::Stream + Unpin>(s: &mut S) -> Option<S::Item> {
    poll_fn(|cx| Pin::new(&mut *s).poll_next(cx)).await
}

#[allow(dead_code)]
async fn sink_send<T, S: futures_sink::Sink<T> + Unpin>(s: &mut S, item: T) -> Result<(), S::Error> {
    poll_fn(|cx| Pin::new(&mut *s).poll_ready(cx)).await?;
    Pin::new(&mut *s).start_send(item)?;
    poll_fn(|cx| Pin::new(&mut *s).poll_flush(cx)).await
}

#[cfg(feature = "futures")]
mod futures_channels {
    use super::*;
    use futures_channel::{mpsc, oneshot};

    #[test]
    fn bounded_mpsc_sink_and_stream() {
        let log = same_behaviour_async!(
            mpsc::channel::<u32>(1),
            hotpath::channel!(mpsc::channel::<u32>(1)),
            |tx, rx, log| {
                let (mut tx, mut rx) = (tx, rx);
                rec(&mut log, tx.try_send(1));
                rec(&mut log, tx.try_send(2)); // buffer 1 plus this sender's slot
                rec(&mut log, tx.try_send(3).map_err(|e| e.is_full()));
                let mut other = tx.clone();
                rec(&mut log, other.try_send(4));
                let consumer = tokio::spawn(async move {
                    let mut got = Vec::new();
                    while let Some(v) = next(&mut rx).await {
                        got.push(v);
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                    got
                });
                for i in 10..15 {
                    rec(&mut log, sink_send(&mut tx, i).await); // waits for room
                }
                drop((tx, other));
                rec(&mut log, consumer.await.unwrap());
            }
        );
        assert_eq!(log[2], "Err(true)");
    }

    #[test]
    fn unbounded_mpsc_and_closing() {
        same_behaviour_async!(mpsc::unbounded::<u8>(), hotpath::channel!(mpsc::unbounded::<u8>()), |tx, rx, log| {
            let (mut tx, mut rx) = (tx, rx);
            rec(&mut log, tx.unbounded_send(1));
            rec(&mut log, sink_send(&mut tx, 2).await);
            rec(&mut log, rx.try_recv());
            rec(&mut log, next(&mut rx).await);
            rec(&mut log, rx.try_recv().map_err(|e| e.to_string()));
            rx.close();
            rec(&mut log, tx.unbounded_send(3).map_err(|e| e.is_disconnected()));
            rec(&mut log, next(&mut rx).await);
        });
    }

    #[test]
    fn oneshot() {
        same_behaviour_async!(
            oneshot::channel::<u32>(),
            hotpath::channel!(oneshot::channel::<u32>()),
            |tx, rx, log| {
                let mut rx = rx;
                rec(&mut log, rx.try_recv());
                rec(&mut log, tx.send(5));
                rec(&mut log, rx.await);
            }
        );
        same_behaviour_async!(
            oneshot::channel::<u32>(),
            hotpath::channel!(oneshot::channel::<u32>()),
            |tx, rx, log| {
                drop(tx);
                rec(&mut log, rx.await);
            }
        );
        same_behaviour_async!(
            oneshot::channel::<u32>(),
            hotpath::channel!(oneshot::channel::<u32>()),
            |tx, rx, log| {
                drop(rx);
                rec(&mut log, (tx.is_canceled(), tx.send(6)));
            }
        );
    }
}

#[cfg(feature = "flume")]
mod flume_channels {
    use super::*;

    #[test]
    fn bounded_sync_and_async() {
        let log = same_behaviour_async!(
            flume::bounded::<u32>(2),
            hotpath::channel!(flume::bounded::<u32>(2)),
            |tx, rx, log| {
                rec(&mut log, (tx.capacity(), tx.try_send(1), tx.send(2)));
                rec(&mut log, (tx.try_send(3), tx.is_full(), rx.len()));
                rec(&mut log, tx.send_timeout(3, Duration::from_millis(2)));
                rec(&mut log, rx.recv_async().await);
                rec(&mut log, tx.send_async(4).await);
                rec(&mut log, rx.drain().collect::<Vec<_>>());
                rec(&mut log, rx.try_recv());
                rec(&mut log, rx.recv_timeout(Duration::from_millis(1)));
                let consumer = {
                    let rx = rx.clone();
                    std::thread::spawn(move || rx.iter().collect::<Vec<_>>())
                };
                for i in 10..20 {
                    rec(&mut log, tx.send(i));
                }
                drop(tx);
                rec(&mut log, consumer.join().unwrap());
                rec(&mut log, rx.recv());
            }
        );
        assert_eq!(log[1], "(Err(\"Full(..)\"), true, 2)");
    }

    #[test]
    fn unbounded_and_disconnect() {
        same_behaviour!(
            flume::unbounded::<String>(),
            hotpath::channel!(flume::unbounded::<String>()),
            |tx, rx, log| {
                for w in ["a", "b"] {
                    rec(&mut log, tx.send(w.to_string()));
                }
                rec(&mut log, rx.try_iter().collect::<Vec<_>>());
                drop(rx);
                rec(&mut log, tx.send("c".into()));
                rec(&mut log, tx.try_send("d".into()));
            }
        );
    }
}

#[cfg(feature = "async-channel")]
mod async_channels {
    use super::*;

    #[test]
    fn bounded_send_recv_force_and_close() {
        same_behaviour_async!(
            async_channel::bounded::<u32>(2),
            hotpath::channel!(async_channel::bounded::<u32>(2)),
            |tx, rx, log| {
                rec(&mut log, (tx.capacity(), tx.try_send(1), tx.send(2).await));
                rec(&mut log, tx.try_send(3));
                rec(&mut log, tx.force_send(4)); // replaces 1
                rec(&mut log, (rx.recv().await, rx.try_recv()));
                rec(&mut log, tx.send(5).await);
                rec(&mut log, next(&mut Box::pin(rx.clone())).await); // the receiver is a Stream too
                let consumer = {
                    let rx = rx.clone();
                    tokio::spawn(async move {
                        let mut got = Vec::new();
                        while let Ok(v) = rx.recv().await {
                            got.push(v);
                        }
                        got
                    })
                };
                for i in 10..15 {
                    rec(&mut log, tx.send(i).await);
                }
                drop(tx);
                rec(&mut log, consumer.await.unwrap());
                rec(&mut log, rx.try_recv());
                rec(&mut log, next(&mut Box::pin(rx)).await);
            }
        );
    }

    #[test]
    fn unbounded_blocking_and_closed() {
        same_behaviour!(
            async_channel::unbounded::<u8>(),
            hotpath::channel!(async_channel::unbounded::<u8>()),
            |tx, rx, log| {
                rec(&mut log, tx.send_blocking(1));
                rec(&mut log, rx.recv_blocking());
                rec(&mut log, rx.try_recv());
                rec(&mut log, tx.close());
                rec(&mut log, (tx.try_send(2), rx.recv_blocking()));
            }
        );
    }
}
