//! Async operations through `io!` (the `tokio` feature): durations span the first
//! poll to `Ready`, shutdowns and failures are counted, and the documented
//! cancellation caveat holds: a read abandoned while `Pending` is resumed by the
//! next read, which then reports the time since the abandoned one began.
#![cfg(all(feature = "hotpath", feature = "tokio"))]

mod common;

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

async fn pair() -> (TcpStream, TcpStream) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let client = TcpStream::connect(listener.local_addr().unwrap()).await.unwrap();
    let (server, _) = listener.accept().await.unwrap();
    (client, server)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

#[test]
fn a_cancelled_read_is_resumed_by_the_next_one() {
    common::session();
    runtime().block_on(async {
        let (client, mut server) = pair().await;
        let mut client = hotpath::io!(client, label = "cancelled");
        let mut buf = [0u8; 16];
        // Nothing arrives: the timeout drops the read future while it is Pending.
        let abandoned = tokio::time::timeout(Duration::from_millis(60), client.read(&mut buf)).await;
        assert!(abandoned.is_err());
        let row = common::live_io_row("cancelled");
        assert_eq!((row.read.ops, row.read.errors), (0, 0), "a cancelled read is not an operation");

        server.write_all(b"late").await.unwrap();
        let n = client.read(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"late");
        let row = common::live_io_row("cancelled");
        assert_eq!((row.read.ops, row.read.bytes), (1, 4));
        // The resumed span started with the abandoned read, at least 60 ms earlier.
        assert!(row.read.max_ns >= 60_000_000, "{} ns", row.read.max_ns);

        // A read that completes normally starts its own span.
        server.write_all(b"next").await.unwrap();
        client.read_exact(&mut buf[..4]).await.unwrap();
        let row = common::live_io_row("cancelled");
        assert_eq!((row.read.ops, row.read.bytes), (2, 8));
    });
}

#[test]
fn async_durations_include_the_wait_for_data() {
    common::session();
    runtime().block_on(async {
        let (client, mut server) = pair().await;
        let mut client = hotpath::io!(client, label = "waiting");
        let writer = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(30)).await;
            server.write_all(b"ready").await.unwrap();
            server
        });
        let mut buf = [0u8; 5];
        client.read_exact(&mut buf).await.unwrap();
        drop(writer.await.unwrap());
        let row = common::live_io_row("waiting");
        assert_eq!((row.read.ops, row.read.bytes), (1, 5));
        assert!(row.read.min_ns >= 30_000_000, "first poll to Ready spans the wait: {} ns", row.read.min_ns);
    });
}

#[test]
fn shutdowns_flushes_and_failures_are_counted() {
    common::session();
    runtime().block_on(async {
        let (client, server) = pair().await;
        let mut client = hotpath::io!(client, label = "closing");
        client.write_all(b"hello").await.unwrap();
        client.flush().await.unwrap();
        drop(server); // the peer goes away: later writes fail
        let mut failed = false;
        for _ in 0..200 {
            if client.write_all(&[0u8; 1024]).await.is_err() {
                failed = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(failed, "writing to a closed peer fails");
        let _ = client.shutdown().await;
        let row = common::live_io_row("closing");
        assert!(row.write.errors >= 1, "{row:#?}");
        assert_eq!(row.flush.ops, 1);
        assert_eq!(row.shutdown.ops + row.shutdown.errors, 1, "{row:#?}");
        assert_eq!(row.write_side_errors(), row.write.errors + row.shutdown.errors);
        assert!(row.write.bytes >= 5);
    });
}
