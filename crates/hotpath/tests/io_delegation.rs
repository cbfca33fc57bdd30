//! The wrapper is a drop-in replacement: `Read`, `Write`, `Seek` and `BufRead`
//! delegate to the wrapped value, its own methods are reachable through `Deref`,
//! `Debug` prints it unchanged, and `io_unwrap` returns it. Runs with the feature
//! on and off. With it on, seeks and `BufRead` buffer access are delegated but not
//! measured, as documented.

#[cfg(feature = "hotpath")]
mod common;

use std::io::{BufRead, Cursor, Read, Seek, SeekFrom, Write};

/// Accepts the wrapper wherever the wrapped type's traits are required.
fn first_line<R: BufRead + Seek>(reader: &mut R) -> String {
    reader.seek(SeekFrom::Start(0)).unwrap();
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    line
}

#[test]
fn wrapper_delegates_every_trait_and_derefs() {
    #[cfg(feature = "hotpath")]
    common::session();
    let mut cursor = hotpath::io!(Cursor::new(b"hello\nworld\n".to_vec()), label = "cursor");
    assert_eq!(first_line(&mut cursor), "hello\n");
    assert_eq!(cursor.position(), 6); // Cursor::position through Deref
    let mut word = [0u8; 5];
    cursor.read_exact(&mut word).unwrap();
    assert_eq!(&word, b"world");
    cursor.set_position(0); // Cursor::set_position through DerefMut
    cursor.write_all(b"HELLO").unwrap();
    assert_eq!(cursor.stream_position().unwrap(), 5);
    let mut expected = Cursor::new(b"HELLO\nworld\n".to_vec());
    expected.set_position(5);
    assert_eq!(format!("{cursor:?}"), format!("{expected:?}"));

    let bytes = hotpath::io_unwrap(cursor).into_inner();
    assert_eq!(bytes, b"HELLO\nworld\n");

    #[cfg(feature = "hotpath")]
    {
        let row = common::live_io_row("cursor");
        // read_exact and write_all went through Read/Write; read_line used fill_buf
        // and the seek moved no bytes: both delegated without measurement.
        assert_eq!((row.read.ops, row.read.bytes), (1, 5));
        assert_eq!((row.write.ops, row.write.bytes), (1, 5));
    }
}

#[test]
fn debug_prints_the_wrapped_value() {
    let wrapped = hotpath::io!(Cursor::new(vec![1u8, 2, 3]));
    assert_eq!(format!("{wrapped:?}"), format!("{:?}", Cursor::new(vec![1u8, 2, 3])));
    assert_eq!(format!("{wrapped:#?}"), format!("{:#?}", Cursor::new(vec![1u8, 2, 3])));
}

/// `hotpath::Io<T>` names the wrapper's type in both modes (it is `T` when off).
struct Connection {
    stream: hotpath::Io<Cursor<Vec<u8>>>,
}

#[test]
fn the_wrapper_type_can_be_named() {
    let mut conn = Connection { stream: hotpath::io!(Cursor::new(Vec::new()), label = "named") };
    conn.stream.write_all(b"abc").unwrap();
    assert_eq!(hotpath::io_unwrap(conn.stream).into_inner(), b"abc");
}

#[cfg(unix)]
#[test]
fn file_descriptors_are_reachable() {
    use std::os::fd::{AsFd, AsRawFd};
    let file = std::fs::File::open("/dev/null").unwrap();
    let raw = file.as_raw_fd();
    let wrapped = hotpath::io!(file);
    assert_eq!(wrapped.as_raw_fd(), raw);
    assert_eq!(wrapped.as_fd().as_raw_fd(), raw);
}
