//! Read-side encoders invert the accounting: reads return compressed bytes, so the
//! wrapper's Bytes is the compressed output, and finishing the stream happens
//! inside the last measured reads.
#![cfg(feature = "hotpath")]

mod common;

use std::io::Read;

fn text() -> Vec<u8> {
    (0..50_000u32).flat_map(|i| format!("entry {} ok\n", i % 313).into_bytes()).collect()
}

#[test]
fn read_side_encoders_count_compressed_output() {
    common::session();
    let data = text();

    let mut gzip =
        hotpath::io!(flate2::read::GzEncoder::new(&data[..], flate2::Compression::new(6)), label = "gzip-reader");
    let mut compressed = Vec::new();
    gzip.read_to_end(&mut compressed).unwrap();
    let mut back = Vec::new();
    flate2::read::GzDecoder::new(&compressed[..]).read_to_end(&mut back).unwrap();
    assert_eq!(back, data);
    let row = common::live_io_row("gzip-reader");
    assert_eq!(row.read.bytes, compressed.len() as u64, "Bytes is the compressed output, trailer included");
    assert!(row.read.bytes < data.len() as u64 / 4);

    let mut brotli = hotpath::io!(brotli::CompressorReader::new(&data[..], 4096, 5, 22), label = "brotli-reader");
    let mut compressed = Vec::new();
    brotli.read_to_end(&mut compressed).unwrap();
    let mut back = Vec::new();
    brotli::Decompressor::new(&compressed[..], 4096).read_to_end(&mut back).unwrap();
    assert_eq!(back, data);
    assert_eq!(common::live_io_row("brotli-reader").read.bytes, compressed.len() as u64);
}
