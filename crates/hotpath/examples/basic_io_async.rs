//! Async I/O measured with `io!` (needs the `tokio` feature): a file written and
//! read back with `tokio::fs`, and a loopback TCP echo whose client stream is
//! wrapped. Async operations are timed from first poll to `Ready`, so the client's
//! reads include the wait for the echo.
//!
//! cargo run -p hotpath --example basic_io_async --features hotpath,tokio

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Messages the client sends, and their size.
const MESSAGES: usize = 100;
const MESSAGE: usize = 64;
/// Size of the file written and read back.
const FILE_SIZE: usize = 256 * 1024;

#[hotpath::main]
#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> std::io::Result<()> {
    let path = std::env::temp_dir().join(format!("hotpath-basic-io-async-{}.bin", std::process::id()));
    let data: Vec<u8> = (0..FILE_SIZE).map(|i| (i % 253) as u8).collect();

    let mut file = hotpath::io!(tokio::fs::File::create(&path).await?, label = "async-file-write");
    file.write_all(&data).await?;
    file.flush().await?;
    file.shutdown().await?;
    drop(file);

    let mut file = hotpath::io!(tokio::fs::File::open(&path).await?, label = "async-file-read");
    let mut back = Vec::new();
    file.read_to_end(&mut back).await?;
    assert_eq!(back, data);
    tokio::fs::remove_file(&path).await?;

    let echoed = echo().await?;
    println!("file: {} bytes written and read back; tcp: {echoed} bytes echoed", data.len());
    Ok(())
}

/// A client sends fixed-size messages to an echo server on 127.0.0.1 and reads
/// each one back, then shuts its write side down.
async fn echo() -> std::io::Result<usize> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await?;
        let (mut reader, mut writer) = socket.split();
        tokio::io::copy(&mut reader, &mut writer).await
    });

    let mut client = hotpath::io!(TcpStream::connect(addr).await?, label = "echo-client");
    let mut total = 0;
    for i in 0..MESSAGES {
        let message = [i as u8; MESSAGE];
        client.write_all(&message).await?;
        let mut reply = [0u8; MESSAGE];
        client.read_exact(&mut reply).await?;
        assert_eq!(reply, message);
        total += reply.len();
    }
    client.shutdown().await?;
    let copied = server.await.map_err(std::io::Error::other)??;
    assert_eq!(copied as usize, total);
    Ok(total)
}
