//! The server on a real loopback socket, fed a fixed snapshot: mounted handlers
//! (streamed bodies included) and the token check in front of them.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use hotpath_model::Report;

use super::*;

fn fixed() -> Option<Arc<Snapshot>> {
    static SNAPSHOT: OnceLock<Arc<Snapshot>> = OnceLock::new();
    let snapshot = SNAPSHOT.get_or_init(|| {
        let mut report = Report::default();
        report.meta.caller = "unit::main".into();
        Arc::new(Snapshot::new(report, Duration::from_secs(1)))
    });
    Some(Arc::clone(snapshot))
}

fn server(token: Option<&str>) -> SocketAddr {
    serve(ServerSettings { token: token.map(String::from), ..ServerSettings::default() })
}

fn serve(settings: ServerSettings) -> SocketAddr {
    let settings = ServerSettings { host: IpAddr::V4(Ipv4Addr::LOCALHOST), port: 0, ..settings };
    listen(&settings, |address| State {
        tokens: state::Tokens::new(&settings),
        address,
        source: fixed,
        rendered: Default::default(),
        stats: Stats::default(),
        exposition: Default::default(),
    })
    .expect("loopback server starts")
}

fn get(address: SocketAddr, path: &str, extra: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\n{extra}\r\n").unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, text)
}

/// Streams three events from its own thread, so the worker is free meanwhile.
struct Ticker;

impl Mount for Ticker {
    fn serve(&self, request: HttpRequest, connection: MountConnection) {
        if request.method == "POST" {
            let echo = format!("{}:{}", request.query, String::from_utf8_lossy(&request.body));
            let _ = connection.respond(200, "text/plain", echo.as_bytes());
            return;
        }
        std::thread::spawn(move || {
            let mut body = connection.stream(200, "text/event-stream", &[("Mcp-Session-Id", "7")]).unwrap();
            for i in 0..3 {
                body.send(format!("data: tick {i}\n\n").as_bytes()).unwrap();
                std::thread::sleep(Duration::from_millis(50));
            }
            body.finish().unwrap();
        });
    }
}

#[test]
fn mounted_handler_streams_and_answers_posts() {
    mount("/unit-ticks", Arc::new(Ticker));
    let address = server(None);
    // Hold open one streamed response while the pool keeps serving.
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    stream.write_all(b"GET /unit-ticks HTTP/1.1\r\nHost: localhost\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    assert_eq!(first, "HTTP/1.1 200 OK\r\n");
    assert_eq!(get(address, "/profiler_status", "").0, 200, "served while a stream is open");
    let mut rest = String::new();
    reader.read_to_string(&mut rest).unwrap();
    assert!(rest.contains("Transfer-Encoding: chunked\r\n") && rest.contains("Mcp-Session-Id: 7\r\n"), "{rest}");
    assert!(rest.contains("data: tick 0\n\n") && rest.contains("data: tick 2\n\n"), "{rest}");
    assert!(rest.ends_with("0\r\n\r\n"), "chunked body ends properly: {rest:?}");

    let mut stream = TcpStream::connect(address).unwrap();
    stream.write_all(b"POST /unit-ticks?x=1 HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello").unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n") && text.ends_with("x=1:hello"), "{text}");
}

#[test]
fn mounts_sit_behind_the_token() {
    mount("/unit-secret", Arc::new(Ticker));
    let address = server(Some("tok"));
    let (status, text) = get(address, "/unit-secret", "");
    assert_eq!(status, 401, "{text}");
    assert!(text.contains("WWW-Authenticate: Bearer"));
    assert_eq!(get(address, "/unit-secret", "Authorization: Bearer tok\r\n").0, 200);
}

#[test]
fn each_surface_asks_for_its_own_token() {
    mount("/mcp", Arc::new(Ticker));
    // hotpath-rs's JSON and MCP tokens, distinct; no Prometheus token and no general one.
    let settings = ServerSettings { surface_tokens: [Some("j".into()), None, Some("m".into())], ..Default::default() };
    let address = serve(settings);
    let bearer = |t: &str| format!("Authorization: Bearer {t}\r\n");
    for (path, opens, refused) in [
        ("/profiler_status", vec!["j"], vec!["", "m"]),
        ("/mcp", vec!["m"], vec!["", "j"]),
        // No token of its own: any token the user set opens it, none leaves it open.
        ("/metrics", vec!["j", "m"], vec!["", "x"]),
    ] {
        for token in opens {
            assert_eq!(get(address, path, &bearer(token)).0, 200, "{path} with {token}");
        }
        for token in refused {
            let extra = if token.is_empty() { String::new() } else { bearer(token) };
            let (status, text) = get(address, path, &extra);
            assert_eq!(status, 401, "{path} with {token:?}: {text}");
        }
    }
    let (_, text) = get(address, "/metrics", "");
    assert!(text.contains("HOTPATH_METRICS_AUTH_TOKEN or HOTPATH_MCP_AUTH_TOKEN"), "{text}");
    // The trace is the report's data: its token passes the gate (then 409, the recorder is off here).
    assert_eq!(get(address, "/timeline", &bearer("j")).0, 409);
    for refused in ["", "m"] {
        let extra = if refused.is_empty() { String::new() } else { bearer(refused) };
        assert_eq!(get(address, "/timeline", &extra).0, 401, "/timeline with {refused:?}");
    }
}

#[test]
fn status_without_sections() {
    let address = server(None);
    let (status, text) = get(address, "/profiler_status", "");
    assert_eq!(status, 200);
    let body: serde_json::Value = serde_json::from_str(text.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["caller"], "unit::main");
    assert_eq!(body["sections"], serde_json::json!([]));
    assert_eq!(body["unavailable"].as_object().unwrap().len(), hotpath_model::SECTIONS.len());
    let (status, text) = get(address, "/functions_timing", "");
    assert_eq!(status, 404);
    assert!(text.contains("section functions_timing not available: no measured function"), "{text}");
    // No session turned the recorder on in this process.
    assert_eq!(body["timeline"]["on"], false, "{body}");
    assert!(body["otlp"].is_null(), "no OTLP export was asked for: {body}");
    let (status, text) = get(address, "/timeline?format=json", "");
    assert_eq!(status, 409, "{text}");
    assert!(text.contains("409 Conflict") && text.contains("HOTPATH_TIMELINE=on"), "{text}");
    let (status, text) = get(address, "/timeline?seconds=abc", "");
    assert_eq!(status, 400, "a bad parameter is named first: {text}");
    assert!(text.contains("seconds=\\\"abc\\\""), "{text}");
}

/// A report of about 12 MB (a long warning), more than a socket takes at once
/// from a client that does not read (loopback buffers grow to a few MB).
fn huge() -> Option<Arc<Snapshot>> {
    static SNAPSHOT: OnceLock<Arc<Snapshot>> = OnceLock::new();
    let snapshot = SNAPSHOT.get_or_init(|| {
        let mut report = Report::default();
        report.meta.warnings = vec!["w".repeat(12 << 20)];
        Arc::new(Snapshot::new(report, Duration::from_secs(1)))
    });
    Some(Arc::clone(snapshot))
}

#[test]
fn clients_that_do_not_read_hold_no_worker() {
    let settings = ServerSettings { port: 0, ..ServerSettings::default() };
    let state = |address| State {
        tokens: state::Tokens::default(),
        address,
        source: huge,
        rendered: Default::default(),
        stats: Stats::default(),
        exposition: Default::default(),
    };
    let address = listen(&settings, state).expect("loopback server starts");
    // As many clients as workers ask for the whole report, and read its first line only:
    // every response has been built and partly sent.
    let mut idle: Vec<TcpStream> = (0..pool::WORKERS)
        .map(|_| {
            let mut s = TcpStream::connect(address).unwrap();
            s.write_all(b"GET /report HTTP/1.1\r\n\r\n").unwrap();
            s
        })
        .collect();
    for s in &mut idle {
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut status = [0u8; 12];
        s.read_exact(&mut status).unwrap();
        assert_eq!(&status, b"HTTP/1.1 200");
    }
    for _ in 0..3 {
        let mut s = TcpStream::connect(address).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
        s.write_all(b"GET /nope HTTP/1.1\r\n\r\n").unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).expect("answered before a 1 s read timeout");
        assert!(text.starts_with("HTTP/1.1 404 "), "{text}");
    }
    // The reactor still sends the rest, whole, to a client that reads late.
    let s = &mut idle[0];
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut raw = b"HTTP/1.1 200".to_vec();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let length: usize = head.lines().find_map(|l| l.strip_prefix("Content-Length: ")).unwrap().parse().unwrap();
    assert!(head.starts_with("HTTP/1.1 200 ") && length > 12 << 20, "{head}");
    assert_eq!(body.len(), length);
}

/// `/metrics` answers in the format each request's Accept header asks for, even when
/// both are asked of one snapshot (the render cache keeps them apart).
#[test]
fn metrics_negotiates_protobuf_or_text() {
    let address = server(None);
    let fetch = |accept: &str| {
        let mut stream = TcpStream::connect(address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        write!(stream, "GET /metrics HTTP/1.1\r\nHost: localhost\r\n{accept}\r\n").unwrap();
        let mut reply = Vec::new();
        stream.read_to_end(&mut reply).unwrap();
        let end = reply.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        (String::from_utf8_lossy(&reply[..end]).to_ascii_lowercase(), reply[end + 4..].to_vec())
    };
    let protobuf = "Accept: application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;\
                    encoding=delimited,text/plain;version=0.0.4;q=0.5\r\n";
    for _ in 0..2 {
        let (head, body) = fetch(protobuf);
        assert!(head.contains("content-type: application/vnd.google.protobuf; proto=io.prometheus.client.metricfamily; encoding=delimited"), "{head}");
        assert!(!body.starts_with(b"# HELP"), "binary, not text");
        let (head, body) = fetch("Accept: text/plain;version=0.0.4\r\n");
        assert!(head.contains("content-type: text/plain; version=0.0.4"), "{head}");
        assert!(body.starts_with(b"# HELP hotpath_info"), "{}", String::from_utf8_lossy(&body));
        let (head, _) = fetch("");
        assert!(head.contains("content-type: text/plain; version=0.0.4"), "{head}");
    }
}
