//! Which layer to wrap: the same file read in 64-byte records twice. Wrapping the
//! `File` under a `BufReader` measures the real file reads (128 large ones for
//! 1 MiB); wrapping the `BufReader` measures what the application asks for (16,384
//! small reads, mostly served from the buffer, with the refills hidden inside them).
//!
//! cargo run -p hotpath --example io_layers --features hotpath

use std::io::Read;

const SIZE: usize = 1 << 20;
const RECORD: usize = 64;

#[hotpath::main]
fn main() -> std::io::Result<()> {
    let dir = std::env::temp_dir().join(format!("hotpath-io-layers-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    std::env::set_current_dir(&dir)?;
    std::fs::write("data.bin", (0..SIZE).map(|i| (i % 241) as u8).collect::<Vec<u8>>())?;

    // Measures actual file I/O (large, infrequent reads).
    let file = hotpath::io!(std::fs::File::open("data.bin")?, label = "file-raw");
    let mut reader = std::io::BufReader::new(file);
    let raw = records(&mut reader)?;

    // Measures application-facing reads (small, frequent, mostly buffer hits).
    let mut reader = hotpath::io!(std::io::BufReader::new(std::fs::File::open("data.bin")?), label = "file-buffered");
    let buffered = records(&mut reader)?;

    assert_eq!(raw, SIZE / RECORD);
    assert_eq!(buffered, SIZE / RECORD);
    println!("{raw} records read through each layer");
    std::env::set_current_dir(std::env::temp_dir())?;
    std::fs::remove_dir_all(&dir)
}

/// Reads fixed-size records until the end of the file.
fn records(reader: &mut impl Read) -> std::io::Result<usize> {
    let mut record = [0u8; RECORD];
    let mut count = 0;
    loop {
        match reader.read_exact(&mut record) {
            Ok(()) => count += 1,
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(count),
            Err(e) => return Err(e),
        }
    }
}
