//! Handlers that take over one path of the live server. This is how the MCP
//! endpoint (`/mcp`, behind the `hotpath-mcp` feature) plugs in without the server
//! knowing about MCP: the handler gets the parsed request and the connection, and
//! may answer at once, stream a body (Server-Sent Events), or move the connection
//! to its own thread so that a long stream never holds a server worker.

use std::io::{self, Write};
use std::net::TcpStream;
use std::sync::{Arc, RwLock};

use super::http::{status_line, HttpRequest};

/// A handler for every request to one path (any method), after the token check.
pub trait Mount: Send + Sync + 'static {
    /// Answers `request` on `connection`. Runs on a server worker: return quickly, or
    /// move the connection to a thread of your own for long-lived streams.
    fn serve(&self, request: HttpRequest, connection: MountConnection);
}

type Mounts = Vec<(String, Arc<dyn Mount>)>;

static MOUNTS: RwLock<Mounts> = RwLock::new(Vec::new());

/// Routes every request for `path` (exact match, e.g. `/mcp`) to `handler`,
/// replacing an earlier handler of the same path. Works before and after the
/// server has started.
pub fn mount(path: &str, handler: Arc<dyn Mount>) {
    let mut mounts = MOUNTS.write().unwrap_or_else(|p| p.into_inner());
    mounts.retain(|(p, _)| p != path);
    mounts.push((path.to_string(), handler));
}

/// The handler mounted at `path`, if any.
pub(crate) fn find(path: &str) -> Option<Arc<dyn Mount>> {
    let mounts = MOUNTS.read().unwrap_or_else(|p| p.into_inner());
    mounts.iter().find(|(p, _)| p == path).map(|(_, h)| Arc::clone(h))
}

/// The client connection of a mounted request. Write and read timeouts of the
/// server stay set (5 s); change them through [`into_tcp_stream`](Self::into_tcp_stream).
#[derive(Debug)]
pub struct MountConnection {
    stream: TcpStream,
}

impl MountConnection {
    pub(crate) fn new(stream: TcpStream) -> Self {
        Self { stream }
    }

    /// Sends a complete response and closes the connection.
    pub fn respond(self, status: u16, content_type: &str, body: &[u8]) -> io::Result<()> {
        self.respond_with(status, content_type, &[], body)
    }

    /// [`respond`](Self::respond) with extra `(name, value)` headers.
    pub fn respond_with(
        mut self,
        status: u16,
        content_type: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> io::Result<()> {
        let mut out = status_line(status);
        out.push_str(&format!("Content-Type: {content_type}\r\nContent-Length: {}\r\n", body.len()));
        for (name, value) in headers {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
        out.push_str("Cache-Control: no-store\r\nConnection: close\r\n\r\n");
        let mut bytes = out.into_bytes();
        bytes.extend_from_slice(body);
        self.stream.write_all(&bytes)?;
        self.stream.flush()
    }

    /// Sends the head of a response whose body follows in chunks (for
    /// `text/event-stream`); `headers` are extra `(name, value)` pairs.
    pub fn stream(mut self, status: u16, content_type: &str, headers: &[(&str, &str)]) -> io::Result<ChunkedBody> {
        let mut out = status_line(status);
        out.push_str(&format!("Content-Type: {content_type}\r\nTransfer-Encoding: chunked\r\n"));
        for (name, value) in headers {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
        out.push_str("Cache-Control: no-store\r\nConnection: close\r\n\r\n");
        self.stream.write_all(out.as_bytes())?;
        self.stream.flush()?;
        Ok(ChunkedBody { stream: self.stream })
    }

    /// The raw socket, for handlers that speak HTTP themselves.
    pub fn into_tcp_stream(self) -> TcpStream {
        self.stream
    }
}

/// A response body sent in chunks; each [`send`](Self::send) reaches the client at once.
#[derive(Debug)]
pub struct ChunkedBody {
    stream: TcpStream,
}

impl ChunkedBody {
    /// Sends one chunk (an SSE event, for example). Empty input sends nothing.
    pub fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let mut frame = format!("{:x}\r\n", bytes.len()).into_bytes();
        frame.extend_from_slice(bytes);
        frame.extend_from_slice(b"\r\n");
        self.stream.write_all(&frame)?;
        self.stream.flush()
    }

    /// Ends the body and closes the connection.
    pub fn finish(mut self) -> io::Result<()> {
        self.stream.write_all(b"0\r\n\r\n")?;
        self.stream.flush()
    }
}
