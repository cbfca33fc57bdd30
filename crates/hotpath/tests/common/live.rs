//! A running `case_live` program with its metrics server on a port the system
//! picked, and a raw HTTP client for it (raw, so tests can also send bad requests).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The program, killed when dropped (it also ends by itself after its run time).
pub(crate) struct Live {
    pub(crate) child: Child,
    pub(crate) address: SocketAddr,
    /// Stderr lines after the listening line, as they arrive.
    pub(crate) stderr: mpsc::Receiver<String>,
}

/// A command for `case_live` running `seconds`, its server on a free port.
pub(crate) fn live_command(seconds: u64) -> Command {
    let mut cmd = super::command("case_live");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF").env("HOTPATH_METRICS_PORT", "0").env("HOTPATH_OUTPUT_FORMAT", "none");
    cmd.arg(seconds.to_string());
    cmd
}

impl Live {
    /// Starts the program and waits for its "listening on" line.
    pub(crate) fn start(mut cmd: Command) -> Self {
        let mut child = cmd.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("case_live starts");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let address = loop {
            let line = rx.recv_timeout(Duration::from_secs(60)).expect("the server announces its address");
            if let Some(rest) = line.strip_prefix("[hotpath] metrics server listening on http://") {
                break rest.parse().expect("a socket address");
            }
        };
        Self { child, address, stderr: rx }
    }

    /// `GET path` with extra header lines; returns status, head and body.
    pub(crate) fn get(&self, path: &str, headers: &str) -> Reply {
        send(self.address, format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n{headers}\r\n").as_bytes())
    }

    /// The JSON body of a `GET` that must succeed.
    pub(crate) fn json(&self, path: &str) -> serde_json::Value {
        let reply = self.get(path, "");
        assert_eq!(reply.status, 200, "GET {path}: {}", reply.body);
        reply.json()
    }

    /// Calls of function `name` so far, waiting until it has completed one.
    pub(crate) fn calls(&self, name: &str) -> u64 {
        for _ in 0..600 {
            let reply = self.get("/functions_timing?limit=0", "");
            if reply.status == 200 {
                let rows = reply.json()["rows"].as_array().cloned().unwrap_or_default();
                if let Some(row) = rows.iter().find(|r| r["name"] == name) {
                    return row["calls"].as_u64().expect("calls is a number");
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("{name} never showed up");
    }

    /// True while the process runs.
    pub(crate) fn running(&mut self) -> bool {
        self.child.try_wait().expect("wait works").is_none()
    }

    /// Resident memory of the process in KiB, from /proc.
    pub(crate) fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).expect("/proc readable");
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS line");
        line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("a number")
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response as read off the socket.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) head: String,
    pub(crate) body: String,
    /// The body as sent (`body` is its lossy UTF-8 text).
    pub(crate) bytes: Vec<u8>,
}

impl Reply {
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {self:?}"))
    }

    /// The value of header `name` (case-insensitive).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// Sends raw bytes and reads the response until the server closes.
pub(crate) fn send(address: SocketAddr, request: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(address).expect("connects");
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let _ = stream.write_all(request);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").map_or(raw.len(), |at| at + 4);
    let head = String::from_utf8_lossy(&raw[..split]).trim_end().to_string();
    let bytes = raw[split..].to_vec();
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    Reply { status, head, body: String::from_utf8_lossy(&bytes).into_owned(), bytes }
}

/// Runs `promtool check metrics` on a `/metrics` body: it must pass and say nothing.
pub(crate) fn promtool_accepts(body: &str) {
    let mut check = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("promtool is installed (scripts/test installs the prometheus package)");
    check.stdin.take().expect("piped stdin").write_all(body.as_bytes()).expect("promtool reads");
    let out = check.wait_with_output().expect("promtool ends");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && said.is_empty(), "promtool: {said}\n{body}");
}
