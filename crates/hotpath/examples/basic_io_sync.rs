//! Synchronous file I/O measured with `io!`: the specification's read of a data
//! file, then a copy written through a `BufWriter` and flushed.
//!
//! cargo run -p hotpath --example basic_io_sync --features hotpath
//!
//! The report's `io` section has a Reads row `data-file` (the file's size in
//! bytes, read in a few large reads) and a Writes row `copy-writer` (one write
//! per 4 KiB chunk, one flush).

use std::io::{Read, Write};

/// Size of the generated data file.
const SIZE: usize = 1 << 20;

#[hotpath::main]
fn main() -> std::io::Result<()> {
    let dir = std::env::temp_dir().join(format!("hotpath-basic-io-sync-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    std::env::set_current_dir(&dir)?;
    let data: Vec<u8> = (0..SIZE).map(|i| (i * 31 % 251) as u8).collect();
    std::fs::write("data.bin", &data)?;

    let read = read_data_file()?;
    assert_eq!(read, data);
    let written = write_copy(&read)?;
    println!("read {} bytes from data.bin, wrote {written} bytes to copy.bin", read.len());

    std::env::set_current_dir(std::env::temp_dir())?;
    std::fs::remove_dir_all(&dir)
}

/// The specification's snippet, as written.
fn read_data_file() -> std::io::Result<Vec<u8>> {
    let mut file = hotpath::io!(std::fs::File::open("data.bin")?, label = "data-file");
    let mut buf = Vec::new();
    file.read_to_end(&mut buf)?;
    Ok(buf)
}

fn write_copy(data: &[u8]) -> std::io::Result<usize> {
    let mut out = hotpath::io!(std::io::BufWriter::new(std::fs::File::create("copy.bin")?), label = "copy-writer");
    for chunk in data.chunks(4096) {
        out.write_all(chunk)?;
    }
    out.flush()?;
    // `get_ref` is a `BufWriter` method, reached through the wrapper's `Deref`.
    Ok(out.get_ref().metadata()?.len() as usize)
}
