//! On a non-blocking socket, `WouldBlock` results are neither operations nor
//! errors: only the reads and writes that moved bytes count, and they count
//! exactly the bytes that went through.
#![cfg(feature = "hotpath")]

mod common;

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

#[test]
fn would_block_is_not_counted_on_a_non_blocking_socket() {
    common::session();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
    let (mut server, _) = listener.accept().unwrap();
    client.set_nonblocking(true).unwrap();
    let mut client = hotpath::io!(client, label = "nonblocking");

    // Nothing sent yet: every read would block.
    let mut buf = [0u8; 64];
    for _ in 0..3 {
        assert_eq!(client.read(&mut buf).unwrap_err().kind(), ErrorKind::WouldBlock);
    }
    let row = common::live_io_row("nonblocking");
    assert_eq!((row.read.ops, row.read.errors), (0, 0));

    server.write_all(b"hello").unwrap();
    let mut would_block = 0;
    let n = loop {
        match client.read(&mut buf) {
            Ok(n) => break n,
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                would_block += 1;
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(e) => panic!("{e}"),
        }
    };
    assert_eq!(&buf[..n], b"hello");
    let row = common::live_io_row("nonblocking");
    assert_eq!((row.read.ops, row.read.bytes, row.read.errors), (1, 5, 0), "after {would_block} WouldBlock results");

    // Write until the socket buffers are full: the last write would block, and is
    // neither an operation nor an error.
    let chunk = [7u8; 16 * 1024];
    let mut sent = 0u64;
    let mut accepted_writes = 0u64;
    loop {
        match client.write(&chunk) {
            Ok(n) => {
                sent += n as u64;
                accepted_writes += 1;
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => break,
            Err(e) => panic!("{e}"),
        }
    }
    let row = common::live_io_row("nonblocking");
    assert_eq!((row.write.ops, row.write.bytes, row.write.errors), (accepted_writes, sent, 0));

    // What the peer receives is exactly what was counted.
    client.shutdown(std::net::Shutdown::Write).unwrap();
    let mut received = Vec::new();
    server.read_to_end(&mut received).unwrap();
    assert_eq!(received.len() as u64, sent);
}
