//! Every code snippet of the `io!` specification (shared/seeds/003), as written,
//! compiled and run with the `hotpath` feature off and on; with it on, the rows
//! they produce are checked. The Redis snippet connects to the test server's port
//! instead of 6379 (scripts/test starts it and sets HOTPATH_TEST_REDIS_PORT).
#![allow(unused_variables, unused_mut)] // the layers snippet shadows its first reader

#[cfg(feature = "hotpath")]
mod common;

use std::sync::OnceLock;

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Runs the snippets in a scratch directory holding the `data.bin` they open.
fn in_scratch_dir() {
    static DIR: OnceLock<()> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("hotpath-io-snippets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("data.bin"), vec![42u8; 100_000]).unwrap();
        std::env::set_current_dir(&dir).unwrap();
    });
    #[cfg(feature = "hotpath")]
    common::session();
}

fn profiling_file_read() -> Result {
    use std::io::Read;

    let mut file = hotpath::io!(std::fs::File::open("data.bin")?, label = "data-file");
    let mut buf = Vec::new();
    file.read_to_end(&mut buf)?;
    assert_eq!(buf.len(), 100_000);
    Ok(())
}

async fn profiling_redis_tcp_connection(port: &str) -> Result {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let stream = tokio::net::TcpStream::connect(format!("127.0.0.1:{port}")).await?;
    let mut stream = hotpath::io!(stream, label = "redis");
    stream.write_all(b"PING\r\n").await?;

    let mut buf = [0u8; 7];
    stream.read_exact(&mut buf).await?; // +PONG\r\n
    assert_eq!(&buf, b"+PONG\r\n");
    Ok(())
}

fn unwrap_for_consuming_methods(data: &[u8]) -> Result<Vec<u8>> {
    use std::io::Write;

    let mut encoder =
        hotpath::io!(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default()), label = "gzip");
    encoder.write_all(data)?;
    let compressed = hotpath::io_unwrap(encoder).finish()?;
    Ok(compressed)
}

fn measured_layers() -> Result {
    // Measures actual file I/O (large, infrequent reads).
    let file = hotpath::io!(std::fs::File::open("data.bin")?, label = "file-raw");
    let mut reader = std::io::BufReader::new(file);

    // Measures application-facing reads (small, frequent, mostly buffer hits).
    let mut reader = hotpath::io!(std::io::BufReader::new(std::fs::File::open("data.bin")?), label = "file-buffered");
    Ok(())
}

fn flush_before_unwrapping(data: &[u8]) -> Result<Vec<u8>> {
    use std::io::Write;

    let mut encoder = hotpath::io!(brotli::CompressorWriter::new(Vec::new(), 4096, 9, 22), label = "brotli");
    encoder.write_all(data)?;
    encoder.flush()?; // compress the buffered tail while still instrumented
    let compressed = hotpath::io_unwrap(encoder).into_inner();
    Ok(compressed)
}

fn wrap_both_sides(data: &[u8]) -> Result<Vec<u8>> {
    use std::io::Write;

    let mut encoder = hotpath::io!(
        flate2::write::GzEncoder::new(hotpath::io!(Vec::new(), label = "gzip-out"), flate2::Compression::new(9),),
        label = "gzip"
    );
    encoder.write_all(data)?;
    encoder.flush()?;
    Ok(hotpath::io_unwrap(hotpath::io_unwrap(encoder).finish()?))
}

fn text() -> Vec<u8> {
    (0..200_000u32).flat_map(|i| format!("line {} of the log\n", i % 977).into_bytes()).take(300_000).collect()
}

fn gunzip(data: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(data).read_to_end(&mut out).unwrap();
    out
}

#[test]
fn file_read_snippet() {
    in_scratch_dir();
    profiling_file_read().unwrap();
    #[cfg(feature = "hotpath")]
    assert_eq!(common::live_io_row("data-file").read.bytes, 100_000);
}

#[test]
fn redis_snippet() {
    let Ok(port) = std::env::var("HOTPATH_TEST_REDIS_PORT") else {
        assert!(std::env::var_os("HOTPATH_TEST_SUITE").is_none(), "scripts/test sets HOTPATH_TEST_REDIS_PORT");
        eprintln!("note: HOTPATH_TEST_REDIS_PORT is not set (scripts/test sets it); skipping the redis snippet");
        return;
    };
    in_scratch_dir();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(profiling_redis_tcp_connection(&port)).unwrap();
    #[cfg(feature = "hotpath")]
    {
        let row = common::live_io_row("redis");
        assert_eq!((row.write.bytes, row.read.bytes, row.instances), (6, 7, 1));
    }
}

#[test]
fn compression_snippets() {
    in_scratch_dir();
    let data = text();
    let data = &data[..];
    let gz = unwrap_for_consuming_methods(data).unwrap();
    assert_eq!(gunzip(&gz), data);
    let br = flush_before_unwrapping(data).unwrap();
    let mut back = Vec::new();
    std::io::Read::read_to_end(&mut brotli::Decompressor::new(&br[..], 4096), &mut back).unwrap();
    assert_eq!(back, data);
    let nested = wrap_both_sides(data).unwrap();
    assert_eq!(gunzip(&nested), data);
    #[cfg(feature = "hotpath")]
    {
        let brotli = common::live_io_row("brotli");
        assert_eq!((brotli.write.bytes, brotli.flush.ops), (data.len() as u64, 1));
        // Two sites share the label "gzip" with different wrapped types: their rows
        // are told apart by the type.
        let report = hotpath::__private::snapshot().unwrap().io.unwrap();
        let mut gzip: Vec<_> = report.rows.iter().filter(|r| r.label.as_deref() == Some("gzip")).collect();
        gzip.sort_by(|a, b| a.name.cmp(&b.name));
        let names: Vec<&str> = gzip.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["gzip <GzEncoder<Io<Vec<u8>>>>", "gzip <GzEncoder<Vec<u8>>>"]);
        assert!(gzip.iter().all(|r| r.write.bytes == data.len() as u64));
        assert_eq!(common::live_io_row("gzip-out").write.bytes, nested.len() as u64);
    }
}

#[test]
fn layers_snippet() {
    in_scratch_dir();
    measured_layers().unwrap();
}
