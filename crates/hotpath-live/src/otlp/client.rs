//! One OTLP/HTTP request: a POST of a protobuf body over a fresh TCP connection
//! (`Connection: close`), plain HTTP/1.1 only, every step under one deadline. A
//! blocking client on the exporter's own thread needs no runtime; a connection per
//! push (every 10 s by default) costs nothing worth a pool. Name resolution is the
//! system's (`getaddrinfo`), which has no timeout of ours: an IP or a name in
//! `/etc/hosts` avoids waiting on DNS.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use hotpath_session::OtlpEndpoint;

/// The media type of OTLP/HTTP's binary protobuf encoding.
pub(crate) const CONTENT_TYPE: &str = "application/x-protobuf";

/// Most bytes of a response kept (an `ExportMetricsServiceResponse` is tiny).
const MAX_RESPONSE: usize = 64 * 1024;

/// What the endpoint answered.
#[derive(Debug)]
pub(crate) struct Response {
    pub(crate) status: u16,
    /// `Retry-After` in seconds, if given as a number.
    pub(crate) retry_after: Option<u64>,
    /// The body, when its length was given.
    pub(crate) body: Vec<u8>,
}

/// Posts `body` to `endpoint`, giving up at `timeout` after the call.
pub(crate) fn post(endpoint: &OtlpEndpoint, body: &[u8], timeout: Duration) -> io::Result<Response> {
    let deadline = Instant::now() + timeout;
    let left = || {
        deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| io::Error::new(io::ErrorKind::TimedOut, "timed out"))
    };
    let mut last = io::Error::new(io::ErrorKind::NotFound, format!("{} resolves to no address", endpoint.host));
    let mut stream = None;
    for address in (endpoint.host.as_str(), endpoint.port).to_socket_addrs()? {
        match TcpStream::connect_timeout(&address, left()?) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = e,
        }
    }
    let mut stream = stream.ok_or(last)?;
    stream.set_nodelay(true)?;
    let host = if endpoint.host.contains(':') { format!("[{}]", endpoint.host) } else { endpoint.host.clone() };
    let head = format!(
        "POST {} HTTP/1.1\r\nHost: {host}:{}\r\nContent-Type: {CONTENT_TYPE}\r\nContent-Length: {}\r\n\
         User-Agent: hotpath/{}\r\nConnection: close\r\n\r\n",
        endpoint.path,
        endpoint.port,
        body.len(),
        env!("CARGO_PKG_VERSION"),
    );
    stream.set_write_timeout(Some(left()?))?;
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        stream.set_read_timeout(Some(left()?))?;
        let n = stream.read(&mut buf)?;
        received.extend_from_slice(&buf[..n]);
        if let Some(response) = parse(&received)? {
            return Ok(response);
        }
        if n == 0 || received.len() > MAX_RESPONSE {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "incomplete HTTP response"));
        }
    }
}

/// A complete response, `None` while more bytes are needed.
fn parse(bytes: &[u8]) -> io::Result<Option<Response>> {
    let mut headers = [httparse::EMPTY_HEADER; 32];
    let mut response = httparse::Response::new(&mut headers);
    let status = response.parse(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    let httparse::Status::Complete(head) = status else { return Ok(None) };
    let code = response.code.unwrap_or(0);
    let header = |name: &str| {
        let found = response.headers.iter().find(|h| h.name.eq_ignore_ascii_case(name));
        found.and_then(|h| std::str::from_utf8(h.value).ok()).map(str::trim)
    };
    let retry_after = header("retry-after").and_then(|v| v.parse().ok());
    let length = header("content-length").and_then(|v| v.parse::<usize>().ok());
    let body = match length {
        Some(n) if bytes.len() - head < n => return Ok(None),
        Some(n) => bytes[head..head + n].to_vec(),
        // Chunked or unknown: the status is what matters.
        None => Vec::new(),
    };
    Ok(Some(Response { status: code, retry_after, body }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_parse_when_complete() {
        assert!(parse(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nab").unwrap().is_none());
        let r = parse(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc").unwrap().unwrap();
        assert_eq!((r.status, r.body.as_slice()), (200, &b"abc"[..]));
        let r = parse(b"HTTP/1.1 503 Busy\r\nRetry-After: 7\r\n\r\n").unwrap().unwrap();
        assert_eq!((r.status, r.retry_after), (503, Some(7)));
        assert!(parse(b"garbage\r\n\r\n").is_err());
    }
}
