//! HTTP/1.1, one request per connection: parsing what has arrived so far with
//! `httparse` (bounded in size; the reactor bounds it in time), and encoding
//! responses, every one of which closes the connection. A response goes out as its
//! own small head followed by a body shared with every other connection sending it
//! (`pending`).

use std::io::{self, IoSlice, Write};
use std::net::Ipv6Addr;
use std::sync::Arc;
use std::time::Duration;

use super::pending::Body;

/// Largest request head (request line and headers) accepted.
pub(crate) const MAX_HEAD: usize = 8 * 1024;
/// Largest request body accepted (only mounted handlers take bodies).
pub(crate) const MAX_BODY: usize = 1024 * 1024;
/// A client must deliver its whole request within this time, however it trickles it.
pub(crate) const READ_DEADLINE: Duration = Duration::from_secs(5);
/// A client must read its whole response within this time.
pub(crate) const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// After an error response, what the client still sends is read and dropped for at
/// most this long (so that closing does not reset the connection before it reads).
pub(crate) const DRAIN_DEADLINE: Duration = Duration::from_secs(1);
/// ... and at most this much.
pub(crate) const DRAIN_BYTES: usize = 256 * 1024;
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
    /// Too many requests are being received at once; the client may retry.
    Busy,
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
            Self::Busy => Response::busy("too many requests in progress"),
        })
    }
}

/// What the bytes received so far hold.
#[derive(Debug)]
pub(crate) enum Parsed {
    /// More bytes are needed.
    Partial,
    /// A whole request, head and body.
    Complete(HttpRequest),
}

/// Parses a request from the bytes received so far (head, then a body of
/// `Content-Length` bytes); the caller reads more while [`Parsed::Partial`].
pub(crate) fn parse(buf: &[u8]) -> Result<Parsed, ReadError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    let head_len = match parsed.parse(buf) {
        Ok(httparse::Status::Complete(head_len)) => head_len,
        Ok(httparse::Status::Partial) if buf.len() > MAX_HEAD => return Err(ReadError::HeadTooLarge),
        Ok(httparse::Status::Partial) => return Ok(Parsed::Partial),
        Err(httparse::Error::TooManyHeaders) => return Err(ReadError::HeadTooLarge),
        Err(e) => return Err(ReadError::Malformed(e.to_string())),
    };
    if head_len > MAX_HEAD {
        return Err(ReadError::HeadTooLarge);
    }
    let mut request = head(&parsed)?;
    check_host(&request)?;
    let length = body_length(&request)?;
    let Some(body) = buf.get(head_len..head_len + length) else { return Ok(Parsed::Partial) };
    request.body = body.to_vec();
    Ok(Parsed::Complete(request))
}

/// The body's length from its one `Content-Length` header (0 without one).
fn body_length(request: &HttpRequest) -> Result<usize, ReadError> {
    if request.header("transfer-encoding").is_some() {
        return Err(ReadError::LengthRequired);
    }
    let mut lengths = request.headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case("content-length"));
    let length = match (lengths.next(), lengths.next()) {
        (None, _) => return Ok(0),
        // Two lengths are how request smuggling starts: whichever one a proxy used, refuse.
        (Some(_), Some(_)) => return Err(ReadError::Malformed("more than one Content-Length header".into())),
        (Some((_, v)), None) => {
            v.parse::<usize>().map_err(|_| ReadError::Malformed(format!("Content-Length {v:?}")))?
        }
    };
    if length > MAX_BODY {
        return Err(ReadError::BodyTooLarge);
    }
    Ok(length)
}

/// At most one `Host`, and of a valid shape: two are how a proxy and this server
/// come to disagree about whom a request is for (RFC 9112 §3.2 asks for a 400).
fn check_host(request: &HttpRequest) -> Result<(), ReadError> {
    let mut hosts = request.headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case("host"));
    match (hosts.next(), hosts.next()) {
        (Some(_), Some(_)) => Err(ReadError::Malformed("more than one Host header".into())),
        (Some((_, host)), None) => host_name(host).map(drop).map_err(ReadError::Malformed),
        (None, _) => Ok(()),
    }
}

/// The name a `Host` value addresses, without its port: the literal inside the
/// brackets of an IPv6 address, which only `:port` may follow; or why it is malformed.
pub(crate) fn host_name(host: &str) -> Result<&str, String> {
    let is_port = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    let Some(bracketed) = host.strip_prefix('[') else {
        return Ok(host.rsplit_once(':').filter(|(_, port)| is_port(port)).map_or(host, |(name, _)| name));
    };
    let malformed = || format!("Host {host:?} is not [IPv6 address] or [IPv6 address]:port");
    let (literal, after) = bracketed.split_once(']').ok_or_else(malformed)?;
    let port_ok = after.is_empty() || after.strip_prefix(':').is_some_and(is_port);
    if !port_ok || literal.parse::<Ipv6Addr>().is_err() {
        return Err(malformed());
    }
    Ok(literal)
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

/// A complete response with a known length; cloning it shares the body.
#[derive(Clone, Debug)]
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) content_type: &'static str,
    pub(crate) headers: Vec<(&'static str, String)>,
    pub(crate) body: Arc<Body>,
}

impl Response {
    pub(crate) fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> Self {
        Self { status, content_type, headers: Vec::new(), body: Body::new(body) }
    }

    pub(crate) fn json(status: u16, body: String) -> Self {
        Self::new(status, "application/json", body.into_bytes())
    }

    /// `{"error": "...", "status": N}`: every failure is JSON, whatever the path.
    pub(crate) fn error(status: u16, message: &str) -> Self {
        Self::json(status, serde_json::json!({ "error": message, "status": status }).to_string())
    }

    /// A 503 the client may retry in a second.
    pub(crate) fn busy(why: &str) -> Self {
        Self::error(503, &format!("{why}; retry later")).with_header("Retry-After", "1")
    }

    pub(crate) fn with_header(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, value.to_string()));
        self
    }
}

/// A response on its way to one client: its head, the shared body (none for
/// `HEAD`), and how many bytes of the two have been sent.
#[derive(Debug)]
pub(crate) struct Outgoing {
    head: Vec<u8>,
    body: Option<Arc<Body>>,
    sent: usize,
}

impl Outgoing {
    /// Writes what `stream` takes: Ok once everything is sent; `WouldBlock` when
    /// the rest must wait; any other error when the client is gone.
    pub(crate) fn write_to(&mut self, stream: &mut impl Write) -> io::Result<()> {
        loop {
            let body = self.body.as_ref().map_or(&[][..], |b| b.bytes());
            let (head, rest) = match self.sent.checked_sub(self.head.len()) {
                None => (&self.head[self.sent..], body),
                Some(into_body) => (&[][..], &body[into_body.min(body.len())..]),
            };
            if head.is_empty() && rest.is_empty() {
                // Done: the body's bytes need not wait for the connection to close.
                self.body = None;
                return Ok(());
            }
            match stream.write_vectored(&[IoSlice::new(head), IoSlice::new(rest)]) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => self.sent += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// A response ready to send; `head_only` for `HEAD` requests.
pub(crate) fn encode(response: &Response, head_only: bool) -> Outgoing {
    let length = response.body.bytes().len();
    let mut out = status_line(response.status);
    out.push_str(&format!("Content-Type: {}\r\nContent-Length: {length}\r\n", response.content_type));
    for (name, value) in &response.headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("Cache-Control: no-store\r\nConnection: close\r\n\r\n");
    let body = (!head_only).then(|| Arc::clone(&response.body));
    Outgoing { head: out.into_bytes(), body, sent: 0 }
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
        406 => "Not Acceptable",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(request: &str) -> Result<(), ReadError> {
        parse(request.as_bytes()).map(drop)
    }

    #[test]
    fn one_host_of_a_valid_shape() {
        for host in ["localhost", "localhost:6770", "[::1]", "[::1]:6770", "[::1]:", "127.0.0.1:80", ""] {
            assert_eq!(status(&format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n")), Ok(()), "{host}");
        }
        assert_eq!(status("GET / HTTP/1.1\r\n\r\n"), Ok(()), "no Host: a tool, not a browser");
        let two = "GET / HTTP/1.1\r\nHost: localhost\r\nhost: attacker.example\r\n\r\n";
        assert_eq!(status(two), Err(ReadError::Malformed("more than one Host header".into())));
        let same = "GET / HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n";
        assert!(status(same).is_err(), "even twice the same name");
        for host in ["[::1]x", "[::1]:x", "[::1]]", "[::1]:6770x", "[::1", "[localhost]", "[::1] :80", "[::1]@evil"] {
            let Err(ReadError::Malformed(why)) = status(&format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n")) else {
                panic!("{host} accepted");
            };
            assert!(why.contains("[IPv6 address]:port"), "{host}: {why}");
        }
        assert_eq!(host_name("[::1]:6770"), Ok("::1"));
        assert_eq!(host_name("localhost:6770"), Ok("localhost"));
    }
}
