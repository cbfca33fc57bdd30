//! A zstd encoder and decoder measured with `io!`. The encoder's Writes row counts
//! the uncompressed input at compression speed; `flush()` through the wrapper
//! compresses the buffered tail while still measured, then `io_unwrap` hands the
//! encoder to its consuming `finish()`. The decoder's Reads row counts the
//! decompressed output.
//!
//! cargo run -p hotpath --example basic_zstd_io --features hotpath

use std::io::{Read, Write};

#[hotpath::main]
fn main() -> std::io::Result<()> {
    let data = text(2 << 20);

    let mut encoder = hotpath::io!(zstd::stream::write::Encoder::new(Vec::new(), 3)?, label = "zstd");
    encoder.write_all(&data)?;
    encoder.flush()?; // compress the buffered tail while still instrumented
    let compressed = hotpath::io_unwrap(encoder).finish()?;

    let mut decoder = hotpath::io!(zstd::stream::read::Decoder::new(&compressed[..])?, label = "zstd-decode");
    let mut back = Vec::new();
    decoder.read_to_end(&mut back)?;
    assert_eq!(back, data);
    println!("zstd: {} bytes -> {} bytes", data.len(), compressed.len());
    Ok(())
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
