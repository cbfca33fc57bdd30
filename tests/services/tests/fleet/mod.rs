//! The fleet test's components: `fleet_case` processes and a `prometheus` server,
//! each killed when dropped, and a small client for their HTTP APIs.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

/// The scrape and rule-evaluation interval the test sets.
pub(crate) const SCRAPE_SECONDS: f64 = 1.0;
/// Catches a hang; never a timing assertion.
const PATIENCE: Duration = Duration::from_secs(120);

/// The `prometheus` binary, or `None` (test skipped) outside scripts/test.
pub(crate) fn prometheus_binary() -> Option<PathBuf> {
    let found = Command::new("prometheus").arg("--version").output().is_ok_and(|o| o.status.success());
    if found {
        return Some(PathBuf::from("prometheus"));
    }
    assert!(
        std::env::var_os("HOTPATH_TEST_SUITE").is_none(),
        "prometheus is not installed (scripts/test installs Debian's package prometheus)"
    );
    eprintln!("skipped: no prometheus binary (apt-get install prometheus)");
    None
}

/// A fresh folder for one run.
pub(crate) fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hotpath-fleet-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) fn unix_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs_f64()
}

/// Index of the histogram bucket (`le` bounds of hotpath's families) holding `seconds`.
pub(crate) fn bucket_of(seconds: f64) -> usize {
    let bounds = [1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0];
    bounds.iter().position(|b| seconds <= *b).unwrap_or(bounds.len())
}

/// `GET path` on `address`: status and body.
fn get(address: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap_or_else(|e| panic!("connect {address}: {e}"));
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n").unwrap();
    let mut reply = String::new();
    let _ = stream.read_to_string(&mut reply);
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    // Prometheus may answer chunked; hotpath's server sends a length.
    let body =
        if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(body) } else { body.into() };
    (status, body)
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// Percent-encoding for a query parameter.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

struct Process {
    child: Child,
    address: String,
    stdout: mpsc::Receiver<String>,
}

/// The profiled processes.
pub(crate) struct Fleet(Vec<Process>);

/// What one process reports about `work`.
#[derive(Debug)]
pub(crate) struct Report {
    pub(crate) address: String,
    pub(crate) calls: f64,
    pub(crate) p99_seconds: f64,
}

impl Fleet {
    /// One `fleet_case` per share, each serving on a port the system picks.
    pub(crate) fn start(shares: &[u64], go: &Path) -> Self {
        let mut fleet = Fleet(Vec::new());
        for share in shares {
            let mut child = Command::new(env!("CARGO_BIN_EXE_fleet_case"))
                .args([share.to_string(), go.display().to_string(), "300".into()])
                .env_remove("HOTPATH_METRICS_SERVER_OFF")
                .env("HOTPATH_METRICS_PORT", "0")
                .env("HOTPATH_METRICS_LABELS", "service=fleet,zone=test")
                .env("HOTPATH_OUTPUT_FORMAT", "none")
                .env("HOTPATH_PERCENTILES", "99")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("fleet_case starts");
            let lines = |pipe: Box<dyn Read + Send>| {
                let (tx, rx) = mpsc::channel();
                std::thread::spawn(move || {
                    for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                        let _ = tx.send(line);
                    }
                });
                rx
            };
            let stderr = lines(Box::new(child.stderr.take().unwrap()));
            let stdout = lines(Box::new(child.stdout.take().unwrap()));
            let address = loop {
                let line = stderr.recv_timeout(PATIENCE).expect("fleet_case announces its server");
                if let Some(rest) = line.strip_prefix("[hotpath] metrics server listening on http://") {
                    break rest.trim().to_string();
                }
                assert!(!line.contains("warning"), "fleet_case: {line}");
            };
            fleet.0.push(Process { child, address, stdout });
        }
        fleet
    }

    pub(crate) fn addresses(&self) -> Vec<String> {
        self.0.iter().map(|p| p.address.clone()).collect()
    }

    /// The full name of the measured `work` function, once the first process has one.
    pub(crate) fn work_function(&self) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let (_, body) = get(&self.0[0].address, "/functions_timing?limit=0");
            let rows: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
            let names = rows["rows"].as_array().into_iter().flatten().filter_map(|r| r["name"].as_str());
            if let Some(name) = names.into_iter().find(|n| n.ends_with("::work")) {
                return name.to_string();
            }
            assert!(Instant::now() < deadline, "no work row: {body}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for every process's `done` line.
    pub(crate) fn wait_done(&self) {
        for p in &self.0 {
            loop {
                let line = p.stdout.recv_timeout(PATIENCE).expect("fleet_case finishes its work");
                if line == "done" {
                    break;
                }
            }
        }
    }

    /// Calls and p99 of `work` as each process reports them on its own JSON endpoint.
    pub(crate) fn reports(&self, work: &str) -> Vec<Report> {
        let report = |p: &Process| {
            let (status, body) = get(&p.address, "/functions_timing?limit=0");
            assert_eq!(status, 200, "{body}");
            let rows: Value = serde_json::from_str(&body).unwrap();
            let row = rows["rows"].as_array().unwrap().iter().find(|r| r["name"] == work).expect("a work row");
            let p99 = row["percentiles_ns"]["p99"].as_f64().unwrap_or_else(|| panic!("p99 in {row}"));
            Report { address: p.address.clone(), calls: row["calls"].as_f64().unwrap(), p99_seconds: p99 / 1e9 }
        };
        self.0.iter().map(report).collect()
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        for p in &mut self.0 {
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }
}

/// A rule as `/api/v1/rules` lists it.
#[derive(Debug)]
pub(crate) struct Rule {
    pub(crate) name: String,
    pub(crate) recording: bool,
    pub(crate) health: String,
}

/// A `prometheus` server on a free loopback port.
pub(crate) struct Prometheus {
    child: Child,
    address: String,
}

impl Prometheus {
    /// Runs `monitoring/prometheus.yml` with 1s intervals, `targets`, and the rule files
    /// by absolute path; data in `dir`.
    pub(crate) fn start(binary: &Path, monitoring: &Path, dir: &Path, targets: &[String]) -> Self {
        Self::start_with(binary, monitoring, dir, targets, &[])
    }

    /// [`start`](Self::start) with more command-line flags (`--enable-feature=...`).
    pub(crate) fn start_with(binary: &Path, monitoring: &Path, dir: &Path, targets: &[String], flags: &[&str]) -> Self {
        let shipped = std::fs::read_to_string(monitoring.join("prometheus.yml")).unwrap();
        let quoted: Vec<String> = targets.iter().map(|t| format!("\"{t}\"")).collect();
        let mut config = shipped.clone();
        for (from, to) in [
            ("scrape_interval: 15s".to_string(), format!("scrape_interval: {SCRAPE_SECONDS}s")),
            ("evaluation_interval: 15s".to_string(), format!("evaluation_interval: {SCRAPE_SECONDS}s")),
            ("[\"127.0.0.1:6770\"]".to_string(), format!("[{}]", quoted.join(", "))),
            ("- rules/".to_string(), format!("- {}/rules/", monitoring.display())),
        ] {
            assert!(config.contains(&from), "monitoring/prometheus.yml has {from:?}");
            config = config.replace(&from, &to);
        }
        std::fs::write(dir.join("prometheus.yml"), config).unwrap();
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let address = format!("127.0.0.1:{port}");
        let log = std::fs::File::create(dir.join("prometheus.log")).unwrap();
        // Under coreutils' `timeout`, so it ends by itself even if this test is killed
        // before its drop; the drop sends `timeout` SIGTERM, which it passes on.
        let child = Command::new("timeout")
            .args(["--kill-after=10", "300"])
            .arg(binary)
            .arg(format!("--config.file={}", dir.join("prometheus.yml").display()))
            .arg(format!("--storage.tsdb.path={}", dir.join("data").display()))
            .arg(format!("--web.listen-address={address}"))
            .args(flags)
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("prometheus starts");
        let server = Prometheus { child, address };
        server.wait_for("prometheus ready", |p| {
            TcpStream::connect(&p.address).is_ok() && get(&p.address, "/-/ready").0 == 200
        });
        server
    }

    /// Polls `ready` until it holds.
    pub(crate) fn wait_for(&self, what: &str, ready: impl Fn(&Self) -> bool) {
        self.wait_until(what, |p| ready(p).then_some(()).ok_or_else(String::new));
    }

    /// Polls `ready` until it is `Ok`; a hang fails with its last complaint.
    pub(crate) fn wait_until(&self, what: &str, ready: impl Fn(&Self) -> Result<(), String>) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            match ready(self) {
                Ok(()) => return,
                Err(why) => assert!(Instant::now() < deadline, "{what}: not within {PATIENCE:?}: {why}"),
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn api(&self, path: &str) -> Value {
        let (status, body) = get(&self.address, path);
        let reply: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {status} {e}: {body}"));
        assert_eq!(reply["status"], "success", "GET {path}: {reply}");
        reply["data"].clone()
    }

    /// An instant query: each series' labels and value.
    pub(crate) fn query(&self, expr: &str) -> Vec<(Value, f64)> {
        let data = self.api(&format!("/api/v1/query?query={}", encode(expr)));
        let result = data["result"].as_array().cloned().unwrap_or_default();
        let value = |v: &Value| v[1].as_str().and_then(|s| s.parse().ok()).unwrap_or(f64::NAN);
        result.iter().map(|s| (s["metric"].clone(), value(&s["value"]))).collect()
    }

    /// A range selector's raw samples, `(timestamp, value)` per series.
    pub(crate) fn samples(&self, expr: &str) -> Vec<Vec<(f64, f64)>> {
        let data = self.api(&format!("/api/v1/query?query={}", encode(expr)));
        let series = data["result"].as_array().cloned().unwrap_or_default();
        let sample = |v: &Value| (v[0].as_f64().unwrap(), v[1].as_str().and_then(|s| s.parse().ok()).unwrap());
        series.iter().map(|s| s["values"].as_array().unwrap().iter().map(sample).collect()).collect()
    }

    /// Every rule loaded, recording and alerting.
    pub(crate) fn rules(&self) -> Vec<Rule> {
        let data = self.api("/api/v1/rules");
        let groups = data["groups"].as_array().cloned().unwrap_or_default();
        let rules = groups.iter().flat_map(|g| g["rules"].as_array().cloned().unwrap_or_default());
        rules
            .map(|r| Rule {
                name: r["name"].as_str().unwrap_or_default().into(),
                recording: r["type"] == "recording",
                health: r["health"].as_str().unwrap_or_default().into(),
            })
            .collect()
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let pid = self.child.id().to_string();
        let stopped = Command::new("kill").args(["-TERM", &pid]).status().is_ok_and(|s| s.success());
        if !stopped {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// `Err` naming the queries that return nothing.
pub(crate) fn no_data(prometheus: &Prometheus, queries: &[String]) -> Result<(), String> {
    let empty: Vec<&String> = queries.iter().filter(|q| prometheus.query(q).is_empty()).collect();
    if empty.is_empty() {
        Ok(())
    } else {
        Err(format!("no data for {empty:?}"))
    }
}

/// Every panel query of the shipped Grafana dashboard.
pub(crate) fn dashboard_queries(monitoring: &Path) -> Vec<String> {
    let dashboard: Value =
        serde_json::from_str(&std::fs::read_to_string(monitoring.join("grafana-dashboard.json")).unwrap()).unwrap();
    let panels = dashboard["panels"].as_array().unwrap();
    let targets = panels.iter().flat_map(|p| p["targets"].as_array().cloned().unwrap_or_default());
    targets.map(|t| t["expr"].as_str().unwrap().to_string()).collect()
}
