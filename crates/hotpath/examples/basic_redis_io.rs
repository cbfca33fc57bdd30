//! A Redis connection measured with `io!` (needs the `tokio` feature and a
//! `redis-server`): the specification's PING/PONG, then a few SET and GET commands
//! in the Redis protocol, written and read through the wrapped `TcpStream`.
//!
//! redis-server --port 6379 --save "" --appendonly no &
//! cargo run -p hotpath --example basic_redis_io --features hotpath,tokio
//!
//! The server address is `127.0.0.1:6379`, or `127.0.0.1:$REDIS_PORT` when set.

use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[hotpath::main]
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = match std::env::var("REDIS_PORT") {
        Ok(port) => format!("127.0.0.1:{port}"),
        Err(_) => "127.0.0.1:6379".to_string(),
    };

    // The specification's snippet, with the address above.
    let stream = tokio::net::TcpStream::connect(&addr).await?;
    let mut stream = hotpath::io!(stream, label = "redis");
    stream.write_all(b"PING\r\n").await?;

    let mut buf = [0u8; 7];
    stream.read_exact(&mut buf).await?; // +PONG\r\n
    assert_eq!(&buf, b"+PONG\r\n");

    let mut written = b"PING\r\n".len();
    let mut read = buf.len();
    for i in 0..5 {
        let key = format!("hotpath:example:{i}");
        let value = format!("value-{i}");
        let set = command(&["SET", &key, &value]);
        stream.write_all(&set).await?;
        read += expect(&mut stream, b"+OK\r\n").await?;
        let get = command(&["GET", &key]);
        stream.write_all(&get).await?;
        read += expect(&mut stream, format!("${}\r\n{value}\r\n", value.len()).as_bytes()).await?;
        let del = command(&["DEL", &key]);
        stream.write_all(&del).await?;
        read += expect(&mut stream, b":1\r\n").await?;
        written += set.len() + get.len() + del.len();
    }
    println!("redis at {addr}: wrote {written} bytes, read {read} bytes");
    Ok(())
}

/// A command as a RESP array of bulk strings.
fn command(parts: &[&str]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", parts.len()).into_bytes();
    for part in parts {
        out.extend_from_slice(format!("${}\r\n{part}\r\n", part.len()).as_bytes());
    }
    out
}

/// Reads exactly the expected reply and checks it; returns its length.
async fn expect(stream: &mut hotpath::Io<tokio::net::TcpStream>, reply: &[u8]) -> std::io::Result<usize> {
    let mut buf = vec![0u8; reply.len()];
    stream.read_exact(&mut buf).await?;
    if buf != reply {
        let got = String::from_utf8_lossy(&buf).into_owned();
        return Err(std::io::Error::other(format!("unexpected reply {got:?}")));
    }
    Ok(buf.len())
}
