//! Byte totals equal what was really transferred, whatever the size of each
//! operation, and flushes are counted.
#![cfg(feature = "hotpath")]

mod common;

use std::io::{BufWriter, Read, Write};
use std::net::{TcpListener, TcpStream};

#[test]
fn byte_totals_equal_the_bytes_transferred() {
    common::session();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    // Writes of deterministic, uneven sizes from 1 byte to 96 KiB.
    let sizes: Vec<usize> = (0..200u64).map(|i| ((i * 7919 + 13) % (96 * 1024)) as usize + 1).collect();
    let total: usize = sizes.iter().sum();
    let sender = std::thread::spawn(move || {
        let mut stream = hotpath::io!(TcpStream::connect(addr).unwrap(), label = "sender");
        for (i, size) in sizes.iter().enumerate() {
            stream.write_all(&vec![i as u8; *size]).unwrap();
        }
        // `shutdown` is a TcpStream method, reached through Deref.
        stream.shutdown(std::net::Shutdown::Write).unwrap();
    });
    let (stream, _) = listener.accept().unwrap();
    let mut receiver = hotpath::io!(stream, label = "receiver");
    let mut received = Vec::new();
    receiver.read_to_end(&mut received).unwrap();
    sender.join().unwrap();

    assert_eq!(received.len(), total);
    let sent = common::live_io_row("sender");
    assert_eq!((sent.write.bytes, sent.write.errors, sent.read.ops), (total as u64, 0, 0));
    assert!(sent.write.ops >= 200);
    let got = common::live_io_row("receiver");
    assert_eq!((got.read.bytes, got.read.errors, got.write.ops), (total as u64, 0, 0));
    assert_eq!(got.read.timed_bytes, got.read.bytes, "every operation is timed at the default rate");
}

#[test]
fn flushes_are_counted() {
    common::session();
    let mut out = hotpath::io!(BufWriter::new(Vec::new()), label = "flushed");
    for i in 0..3u8 {
        out.write_all(&[i; 100]).unwrap();
        out.flush().unwrap();
    }
    let row = common::live_io_row("flushed");
    assert_eq!((row.write.ops, row.write.bytes, row.flush.ops, row.flush.errors), (3, 300, 3, 0));
    assert_eq!(row.flush.timed_ops, 3);
    let inner = hotpath::io_unwrap(out).into_inner().unwrap();
    assert_eq!(inner.len(), 300);
}
