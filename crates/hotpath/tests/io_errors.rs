//! Failed operations are counted per kind; the write table's Errors column adds
//! write, flush and shutdown errors. `Interrupted` and `WouldBlock` results are
//! neither operations nor errors.
#![cfg(feature = "hotpath")]

mod common;

use std::io::{ErrorKind, Read, Write};

/// Accepts two writes, then fails every write; every flush fails.
struct FailingWriter {
    accepted: usize,
}

impl Write for FailingWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.accepted == 2 {
            return Err(std::io::Error::new(ErrorKind::BrokenPipe, "the disk went away"));
        }
        self.accepted += 1;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Err(std::io::Error::other("flush failed"))
    }
}

#[test]
fn failing_writer_errors_are_counted_per_kind() {
    common::session();
    let mut writer = hotpath::io!(FailingWriter { accepted: 0 }, label = "failing-writer");
    writer.write_all(b"one").unwrap();
    writer.write_all(b"three").unwrap();
    assert_eq!(writer.write_all(b"lost").unwrap_err().kind(), ErrorKind::BrokenPipe);
    assert!(writer.write(b"lost again").is_err());
    assert!(writer.flush().is_err());

    let row = common::live_io_row("failing-writer");
    assert_eq!((row.write.ops, row.write.bytes, row.write.errors), (2, 8, 2));
    assert_eq!((row.flush.ops, row.flush.errors), (0, 1));
    assert_eq!(row.write_side_errors(), 3);
    assert_eq!((row.read.ops, row.read.errors), (0, 0));

    let report = hotpath::__private::snapshot().unwrap();
    let text = hotpath::__private::model::render_table(&report);
    let writes = common::table_with_column(&text, "Writes");
    let cells = writes.iter().find(|r| r[0] == "failing-writer").unwrap();
    assert_eq!(cells.last().unwrap(), "3", "write + flush errors: {cells:?}");
    let json: serde_json::Value = serde_json::from_str(&report.to_json(false)).unwrap();
    let row = common::io_row(&json, "failing-writer");
    assert_eq!(
        (&row["write"]["errors"], &row["flush"]["errors"], &row["shutdown"]["errors"]),
        (&2.into(), &1.into(), &0.into())
    );
}

/// Yields one byte per call, after an `Interrupted` error before each byte.
struct Interrupting {
    left: usize,
    interrupt: bool,
}

impl Read for Interrupting {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(ErrorKind::Interrupted.into());
        }
        if self.left == 0 || buf.is_empty() {
            return Ok(0);
        }
        self.left -= 1;
        buf[0] = b'x';
        Ok(1)
    }
}

/// Never ready.
struct Blocked;

impl Read for Blocked {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(ErrorKind::WouldBlock.into())
    }
}

#[test]
fn retryable_results_are_neither_operations_nor_errors() {
    common::session();
    let mut reader = hotpath::io!(Interrupting { left: 10, interrupt: false }, label = "interrupting");
    let mut buf = [0u8; 10];
    reader.read_exact(&mut buf).unwrap(); // retries after each Interrupted
    let row = common::live_io_row("interrupting");
    assert_eq!((row.read.ops, row.read.bytes, row.read.errors), (10, 10, 0));

    let mut blocked = hotpath::io!(Blocked, label = "blocked");
    for _ in 0..5 {
        assert_eq!(blocked.read(&mut buf).unwrap_err().kind(), ErrorKind::WouldBlock);
    }
    let row = common::live_io_row("blocked");
    assert_eq!((row.instances, row.read.ops, row.read.errors), (1, 0, 0));
}
