//! gzip and brotli across compression levels, each encoder measured with `io!` and
//! its output sink wrapped by a nested `io!`. With `iter = true` every encoder and
//! every sink gets its own row: `gzip`, `gzip-2`, `gzip-3` for the levels in order,
//! paired with `gzip-out`, `gzip-out-2`, `gzip-out-3`. An encoder row's Bytes is the
//! uncompressed input and its Rate the codec's speed; a sink row's Bytes is the
//! compressed size (its Rate is memcpy speed and means little).
//!
//! cargo run --release -p hotpath --example compression_levels_io --features hotpath

use std::io::{Read, Write};

const GZIP_LEVELS: [u32; 3] = [1, 6, 9];
const BROTLI_QUALITIES: [u32; 3] = [1, 5, 9];

#[hotpath::main(limit = 0)]
fn main() -> std::io::Result<()> {
    let data = text(1 << 20);
    for (i, level) in GZIP_LEVELS.into_iter().enumerate() {
        let compressed = gzip(level, &data)?;
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&compressed[..]).read_to_end(&mut back)?;
        assert_eq!(back, data);
        println!(
            "gzip level {level}: rows {} {}: {} -> {} bytes",
            row("gzip", i),
            row("gzip-out", i),
            data.len(),
            compressed.len()
        );
    }
    for (i, quality) in BROTLI_QUALITIES.into_iter().enumerate() {
        let compressed = brotli(quality, &data)?;
        let mut back = Vec::new();
        brotli::Decompressor::new(&compressed[..], 4096).read_to_end(&mut back)?;
        assert_eq!(back, data);
        println!(
            "brotli quality {quality}: rows {} {}: {} -> {} bytes",
            row("brotli", i),
            row("brotli-out", i),
            data.len(),
            compressed.len()
        );
    }
    Ok(())
}

/// The row name of the `i`-th instance (0-based) of an `iter = true` site.
fn row(label: &str, i: usize) -> String {
    if i == 0 {
        label.to_string()
    } else {
        format!("{label}-{}", i + 1)
    }
}

fn gzip(level: u32, data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut encoder = hotpath::io!(
        flate2::write::GzEncoder::new(
            hotpath::io!(Vec::new(), label = "gzip-out", iter = true),
            flate2::Compression::new(level),
        ),
        label = "gzip",
        iter = true
    );
    encoder.write_all(data)?;
    encoder.flush()?; // compress the buffered tail while still instrumented
                      // `finish` writes the gzip trailer into the still-wrapped sink, so it is counted.
    let sink = hotpath::io_unwrap(encoder).finish()?;
    Ok(hotpath::io_unwrap(sink))
}

fn brotli(quality: u32, data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut encoder = hotpath::io!(
        brotli::CompressorWriter::new(hotpath::io!(Vec::new(), label = "brotli-out", iter = true), 4096, quality, 22),
        label = "brotli",
        iter = true
    );
    encoder.write_all(data)?;
    encoder.flush()?; // compress the buffered tail while still instrumented
    let sink = hotpath::io_unwrap(encoder).into_inner();
    Ok(hotpath::io_unwrap(sink))
}

/// Compressible text: words from a small vocabulary in a deterministic order.
fn text(len: usize) -> Vec<u8> {
    let words = ["alpha ", "beta ", "gamma ", "delta ", "epsilon ", "zeta ", "eta ", "theta\n"];
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(words[(x % words.len() as u64) as usize].as_bytes());
    }
    out.truncate(len);
    out
}
