//! The live server under hostile or broken conditions: clients that trickle bytes
//! cannot starve normal requests, a token that is set but unusable fails closed,
//! foreign Host names are refused on every endpoint (DNS rebinding), no CORS header
//! opens the data to other origins, and two Content-Length headers, two Host headers
//! or a malformed bracketed IPv6 Host are refused.
#![cfg(all(feature = "hotpath", unix))]

mod common;

use std::ffi::OsString;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::unix::ffi::OsStringExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::bounded;
use common::live::{live_command, send, Live};

/// `GET path` answered within `limit` (a read timeout): the status, or None.
fn get_within(address: SocketAddr, path: &str, limit: Duration) -> Option<u16> {
    let mut stream = TcpStream::connect(address).ok()?;
    stream.set_read_timeout(Some(limit)).ok()?;
    stream.write_all(format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes()).ok()?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).ok()?;
    String::from_utf8_lossy(&raw).get(9..12)?.parse().ok()
}

#[test]
fn trickling_and_slowloris_clients_leave_normal_requests_answered() {
    let live = Live::start(live_command(120));
    // Four clients send a bad request, read the 400, then trickle a byte every 200 ms:
    // the server reads and drops what they send, for a while.
    let mut trickling: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut s = TcpStream::connect(live.address).unwrap();
            s.write_all(b"hello there\r\n\r\n").unwrap();
            s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
            let mut head = [0u8; 12];
            s.read_exact(&mut head).unwrap();
            assert_eq!(&head[9..12], b"400");
            s
        })
        .collect();
    // Fifty clients send a request head one byte a second.
    let mut slow: Vec<TcpStream> = (0..50)
        .map(|_| {
            let mut s = TcpStream::connect(live.address).unwrap();
            s.write_all(b"GET /metrics HTTP/1.1\r\n").unwrap();
            s
        })
        .collect();
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Stops the attackers however the test ends (a failed assert included); they
        // also give up by themselves after 30 s.
        let _stop = StopOnDrop(&stop);
        scope.spawn(|| {
            for tick in 0..150u64 {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                trickling.iter_mut().for_each(|s| drop(s.write_all(b"x")));
                if tick % 5 == 0 {
                    slow.iter_mut().for_each(|s| drop(s.write_all(b"X")));
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        std::thread::sleep(Duration::from_millis(1500));
        for _ in 0..5 {
            // The behaviour under test: answered before a 1 s read timeout, attackers or not.
            let status = get_within(live.address, "/profiler_status", Duration::from_secs(1));
            assert_eq!(status, Some(200), "a normal request is starved by slow clients");
        }
    });
}

struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A program whose server has an unusable token; returns it and its stderr up to
/// the listening line.
fn with_token(token: OsString) -> (Live, String) {
    let mut cmd: Command = live_command(60);
    cmd.env("HOTPATH_AUTH_TOKEN", &token).stdout(Stdio::null()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let lines = bounded::lines(child.stderr.take().unwrap());
    let mut before = Vec::new();
    let address = loop {
        let line = lines.recv_timeout(Duration::from_secs(60)).expect("the server starts");
        match line.strip_prefix("[hotpath] metrics server listening on http://") {
            Some(address) => break address.parse().unwrap(),
            None => before.push(line),
        }
    };
    (Live { child, address, stderr: lines }, before.join("\n"))
}

#[test]
fn an_unusable_token_fails_closed() {
    let cases = [(OsString::from(""), "is empty"), (OsString::from_vec(b"s3cr\xff".to_vec()), "is not valid UTF-8")];
    for (token, why) in cases {
        let (live, stderr) = with_token(token);
        let warnings: Vec<&str> = stderr.lines().filter(|l| l.starts_with("[hotpath] warning: ")).collect();
        assert_eq!(warnings.len(), 1, "{stderr}");
        assert!(warnings[0].contains(&format!("HOTPATH_AUTH_TOKEN (value hidden) {why}")), "{stderr}");
        assert!(!stderr.contains("s3cr"), "the value is never shown: {stderr}");
        for path in ["/", "/profiler_status", "/report", "/metrics", "/nope"] {
            for auth in ["", "Authorization: Bearer \r\n", "Authorization: Bearer s3cr\r\n"] {
                let reply = live.get(path, auth);
                assert_eq!(reply.status, 401, "{path} {auth:?}: {reply:?}");
                assert!(reply.json()["error"].as_str().unwrap().contains("unusable"), "{reply:?}");
            }
        }
    }
}

#[test]
fn foreign_host_names_are_refused_on_every_endpoint() {
    let live = Live::start(live_command(60));
    let port = live.address.port();
    for path in ["/", "/report", "/functions_timing", "/metrics", "/profiler_status", "/nope"] {
        let request = |host: &str| {
            let origin = "Origin: http://attacker.example\r\n";
            send(live.address, format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{origin}\r\n").as_bytes())
        };
        let refused = request("attacker.example");
        assert_eq!(refused.status, 403, "{path}: {refused:?}");
        assert!(refused.json()["error"].as_str().unwrap().contains("loopback"), "{refused:?}");
        assert_eq!(request(&format!("attacker.example:{port}")).status, 403, "{path}");
        for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}"), "[::1]".to_string()] {
            let reply = request(&host);
            assert!(matches!(reply.status, 200 | 404), "{path} with Host {host}: {reply:?}");
            assert!(!reply.head.to_ascii_lowercase().contains("access-control-"), "no CORS header: {reply:?}");
        }
    }
}

#[test]
fn two_content_lengths_are_refused() {
    let live = Live::start(live_command(60));
    let reply = send(live.address, b"GET /report HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\nhello");
    assert_eq!(reply.status, 400, "{reply:?}");
    assert!(reply.json()["error"].as_str().unwrap().contains("more than one Content-Length"), "{reply:?}");
    assert_eq!(live.get("/profiler_status", "").status, 200);
}

#[test]
fn two_hosts_and_malformed_ipv6_hosts_are_refused() {
    for token in [None, Some("open-sesame")] {
        let mut cmd = live_command(60);
        if let Some(token) = token {
            cmd.env("HOTPATH_AUTH_TOKEN", token);
        }
        let live = Live::start(cmd);
        let port = live.address.port();
        let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        let request = |hosts: &[String]| {
            let hosts: String = hosts.iter().map(|h| format!("Host: {h}\r\n")).collect();
            send(live.address, format!("GET /profiler_status HTTP/1.1\r\n{hosts}{auth}\r\n").as_bytes())
        };
        for hosts in [vec!["localhost".to_string(), "attacker.example".into()], vec!["localhost".into(); 2]] {
            let reply = request(&hosts);
            assert_eq!(reply.status, 400, "{hosts:?}, token {token:?}: {reply:?}");
            assert!(reply.json()["error"].as_str().unwrap().contains("more than one Host"), "{reply:?}");
        }
        for host in ["[::1]x", "[::1]:6770x", "[::1]]", "[::1]@attacker.example", "[::1"] {
            let reply = request(&[host.to_string()]);
            assert_eq!(reply.status, 400, "{host}, token {token:?}: {reply:?}");
        }
        for host in [format!("[::1]:{port}"), "[::1]:6770".into(), "[::1]".into()] {
            assert_eq!(request(std::slice::from_ref(&host)).status, 200, "{host}, token {token:?}");
        }
    }
}
