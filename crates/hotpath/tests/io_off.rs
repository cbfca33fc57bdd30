//! With the `hotpath` feature off, `io!` returns its argument unchanged (same
//! type, same value) and `io_unwrap` is the identity.
#![cfg(not(feature = "hotpath"))]

use std::io::Cursor;

#[test]
fn io_is_the_identity_without_the_feature() {
    let cursor: Cursor<Vec<u8>> = hotpath::io!(Cursor::new(vec![1, 2, 3]), label = "same", iter = true);
    assert_eq!(cursor.get_ref(), &[1, 2, 3]);
    let same: Cursor<Vec<u8>> = hotpath::io_unwrap(cursor);
    assert_eq!(same.into_inner(), [1, 2, 3]);
    let unwrap: fn(Vec<u8>) -> Vec<u8> = hotpath::io_unwrap::<Vec<u8>>;
    assert_eq!(unwrap(vec![4]), [4]);
    let _: hotpath::Io<u8> = 5u8; // the wrapper type is the wrapped type
    assert_eq!(std::mem::size_of::<hotpath::Io<Cursor<Vec<u8>>>>(), std::mem::size_of::<Cursor<Vec<u8>>>());
}
