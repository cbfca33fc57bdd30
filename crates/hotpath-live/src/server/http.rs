//! HTTP/1.1 on a blocking socket: one request per connection, parsed with `httparse`,
//! bounded in size and in time; every response closes the connection, so an idle
//! client never holds a worker.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Largest request head (request line and headers) accepted.
pub(crate) const MAX_HEAD: usize = 8 * 1024;
/// Largest request body accepted (only mounted handlers take bodies).
pub(crate) const MAX_BODY: usize = 1024 * 1024;
/// A client must deliver its whole request within this time, however it trickles it.
pub(crate) const READ_DEADLINE: Duration = Duration::from_secs(5);
/// A client that stops reading the response is dropped after this time.
pub(crate) const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
const MAX_HEADERS: usize = 48;

/// A parsed HTTP request, as mounted handlers receive it.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct HttpRequest {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path without the query string, e.g. `/mcp`.
    pub path: String,
    /// The raw query string after `?` (empty when none).
    pub query: String,
    /// Header names (as sent) and values (lossy UTF-8).
    pub headers: Vec<(String, String)>,
    /// The body, sized by `Content-Length` (empty when none).
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// The first header named `name`, compared case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Why no request could be read; each maps to a status, or to silence when the
/// client went away.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ReadError {
    Closed,
    Timeout,
    Malformed(String),
    HeadTooLarge,
    BodyTooLarge,
    LengthRequired,
}

impl ReadError {
    /// The error response to send, if the client is still there to read it.
    pub(crate) fn response(&self) -> Option<Response> {
        Some(match self {
            Self::Closed => return None,
            Self::Timeout => Response::error(408, "request not received in time"),
            Self::Malformed(why) => Response::error(400, &format!("malformed request: {why}")),
            Self::HeadTooLarge => Response::error(431, &format!("request head larger than {MAX_HEAD} bytes")),
            Self::BodyTooLarge => Response::error(413, &format!("request body larger than {MAX_BODY} bytes")),
            Self::LengthRequired => Response::error(411, "request bodies need a Content-Length (no chunked uploads)"),
        })
    }
}

/// Reads one request, giving the client [`READ_DEADLINE`] in total.
pub(crate) fn read_request(stream: &mut TcpStream) -> Result<HttpRequest, ReadError> {
    let deadline = Instant::now() + READ_DEADLINE;
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    loop {
        let n = read_some(stream, &mut chunk, deadline)?;
        if n == 0 {
            return Err(if buf.is_empty() { ReadError::Closed } else { ReadError::Malformed("truncated head".into()) });
        }
        buf.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut parsed = httparse::Request::new(&mut headers);
        match parsed.parse(&buf) {
            Ok(httparse::Status::Complete(head_len)) => {
                let request = head(&parsed)?;
                return read_body(stream, request, buf.split_off(head_len), deadline);
            }
            Ok(httparse::Status::Partial) if buf.len() > MAX_HEAD => return Err(ReadError::HeadTooLarge),
            Ok(httparse::Status::Partial) => {}
            Err(httparse::Error::TooManyHeaders) => return Err(ReadError::HeadTooLarge),
            Err(e) => return Err(ReadError::Malformed(e.to_string())),
        }
        if buf.len() > MAX_HEAD {
            return Err(ReadError::HeadTooLarge);
        }
    }
}

fn head(parsed: &httparse::Request<'_, '_>) -> Result<HttpRequest, ReadError> {
    let (method, target) = (parsed.method.unwrap_or_default(), parsed.path.unwrap_or_default());
    if !target.starts_with('/') {
        return Err(ReadError::Malformed(format!("request target {target:?} is not an absolute path")));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let headers = parsed
        .headers
        .iter()
        .map(|h| (h.name.to_string(), String::from_utf8_lossy(h.value).trim().to_string()))
        .collect();
    Ok(HttpRequest { method: method.into(), path: path.into(), query: query.into(), headers, body: Vec::new() })
}

fn read_body(
    stream: &mut TcpStream,
    mut request: HttpRequest,
    mut body: Vec<u8>,
    deadline: Instant,
) -> Result<HttpRequest, ReadError> {
    if request.header("transfer-encoding").is_some() {
        return Err(ReadError::LengthRequired);
    }
    let length = match request.header("content-length") {
        None => 0,
        Some(v) => v.parse::<usize>().map_err(|_| ReadError::Malformed(format!("Content-Length {v:?}")))?,
    };
    if length > MAX_BODY {
        return Err(ReadError::BodyTooLarge);
    }
    let mut chunk = [0u8; 8192];
    while body.len() < length {
        let n = read_some(stream, &mut chunk, deadline)?;
        if n == 0 {
            return Err(ReadError::Malformed("body shorter than its Content-Length".into()));
        }
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(length);
    request.body = body;
    Ok(request)
}

/// One `read`, timed out at the deadline (a per-read timeout alone would let a
/// client that sends a byte a second hold the worker forever).
fn read_some(stream: &mut TcpStream, buf: &mut [u8], deadline: Instant) -> Result<usize, ReadError> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ReadError::Timeout);
        }
        stream.set_read_timeout(Some(left)).map_err(|_| ReadError::Closed)?;
        match stream.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                return Err(ReadError::Timeout)
            }
            Err(_) => return Err(ReadError::Closed),
        }
    }
}

/// A complete response with a known length.
#[derive(Debug)]
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) content_type: &'static str,
    pub(crate) headers: Vec<(&'static str, String)>,
    pub(crate) body: Vec<u8>,
}

impl Response {
    pub(crate) fn json(status: u16, body: String) -> Self {
        Self { status, content_type: "application/json", headers: Vec::new(), body: body.into_bytes() }
    }

    /// `{"error": "...", "status": N}`: every failure is JSON, whatever the path.
    pub(crate) fn error(status: u16, message: &str) -> Self {
        Self::json(status, serde_json::json!({ "error": message, "status": status }).to_string())
    }

    pub(crate) fn with_header(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, value.to_string()));
        self
    }
}

/// Writes a response; `head_only` for `HEAD` requests.
pub(crate) fn write_response(stream: &mut impl Write, response: &Response, head_only: bool) -> io::Result<()> {
    let mut out = status_line(response.status);
    out.push_str(&format!("Content-Type: {}\r\nContent-Length: {}\r\n", response.content_type, response.body.len()));
    for (name, value) in &response.headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("Cache-Control: no-store\r\nConnection: close\r\n\r\n");
    let mut bytes = out.into_bytes();
    if !head_only {
        bytes.extend_from_slice(&response.body);
    }
    stream.write_all(&bytes)?;
    stream.flush()
}

/// `HTTP/1.1 404 Not Found\r\n`.
pub(crate) fn status_line(status: u16) -> String {
    format!("HTTP/1.1 {status} {}\r\n", reason(status))
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}
