//! The per-row logs of the SQL, HTTP client and server rows against real components:
//! `service_case` (an axum server on 127.0.0.1, reqwest and ureq clients, SQLite through
//! sqlx and diesel) runs as a process of its own; its live server's
//! `/{sql|http|server}/{name}/logs` endpoints are fetched over HTTP and its JSON
//! report's `debug.logged` summary is read. Checked: the records' contents, the
//! `HOTPATH_LOGS_LIMIT` bound, no raw SQL literal without `HOTPATH_SQL_RAW_LOGS`, no
//! query string anywhere.
#![cfg(feature = "profile")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::Value;

fn scratch() -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir =
        std::env::temp_dir().join(format!("hotpath-svclogs-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn program(dir: &std::path::Path, format: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_service_case"));
    cmd.arg(dir)
        .env("HOTPATH_OUTPUT_FORMAT", format)
        .env("HOTPATH_OUTPUT_PATH", dir.join("report"))
        .env("HOTPATH_LIMIT", "0")
        .env("HOTPATH_METRICS_SERVER_OFF", "1")
        .env_remove("HOTPATH_LOGS_LIMIT")
        .env_remove("HOTPATH_MAX_LOG_LEN")
        .env_remove("HOTPATH_ROUTE_SCOPE")
        .env_remove("HOTPATH_ENTRIES_LIMIT")
        .env_remove("HOTPATH_SQL_RAW_LOGS");
    cmd
}

/// `GET path` on the live server: the status line's code and the body.
fn fetch(address: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, body.to_string())
}

/// The row's logs at `/{section}/{name}/logs`, the name percent-encoded.
fn logs(address: &str, section: &str, name: &str) -> Value {
    let mut encoded = String::new();
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            encoded.push(byte as char);
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    let (status, body) = fetch(address, &format!("/{section}/{encoded}/logs"));
    assert_eq!(status, 200, "{section} {name}: {body}");
    serde_json::from_str(&body).unwrap()
}

fn values(logs: &Value) -> Vec<String> {
    logs["logs"].as_array().unwrap().iter().map(|l| l["value"].as_str().unwrap().to_string()).collect()
}

fn n(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

#[test]
fn row_logs_are_served_bounded_and_hold_no_query_string_or_literal() {
    let dir = scratch();
    let mut child = program(&dir, "none")
        .arg("wait")
        .env_remove("HOTPATH_METRICS_SERVER_OFF")
        .env("HOTPATH_METRICS_PORT", "0")
        .env("HOTPATH_LOGS_LIMIT", "3")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let address = loop {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "no listening line");
        if let Some(rest) = line.trim().strip_prefix("[hotpath] metrics server listening on http://") {
            break rest.to_string();
        }
    };
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ready = String::new();
    stdout.read_line(&mut ready).unwrap();
    assert_eq!(ready.trim(), "ready");

    // Server: a name with `/`, `{` and a space, percent-encoded; 8 requests, 3 kept.
    let users = logs(&address, "server", "GET /users/{id}");
    assert_eq!((users["section"].as_str(), n(&users["total"])), (Some("server"), 8), "{users}");
    let kept = values(&users);
    assert_eq!(kept.len(), 3, "HOTPATH_LOGS_LIMIT=3: {kept:?}");
    for value in &kept {
        assert!(value.starts_with("status=") && value.contains(" duration_ns="), "{value}");
        assert!(value.contains(" route=GET /users/{id} path=/users/"), "{value}");
    }
    assert!(users["logs"][0]["thread"].as_str().is_some_and(|t| !t.is_empty()), "{users}");
    let about = values(&logs(&address, "server", "GET /pages/about"));
    assert_eq!(about.len(), 1);
    assert!(about[0].starts_with("status=200 ") && about[0].ends_with(" path=/pages/about"), "{about:?}");
    let crash = values(&logs(&address, "server", "GET /crash"));
    assert!(crash.iter().all(|v| v.starts_with("status=500 ")), "{crash:?}");

    // HTTP client: the full URL without its query string.
    let about = values(&logs(&address, "http", "GET 127.0.0.1:{port}/pages/about"));
    assert_eq!(about.len(), 1);
    let value = &about[0];
    assert!(value.starts_with("method=GET status=200 duration_ns="), "{value}");
    let url = value.split_once(" url=").map(|(_, u)| u).unwrap_or_default();
    let port = url.strip_prefix("http://127.0.0.1:").and_then(|u| u.strip_suffix("/pages/about"));
    assert!(port.is_some_and(|p| p.parse::<u16>().is_ok()), "{value}");
    assert!(!value.contains("lang") && !value.contains('?'), "no query string: {value}");
    let refused = values(&logs(&address, "http", "ext: GET 127.0.0.1:{port}/"));
    assert!(refused[0].starts_with("method=GET status=failed duration_ns=") && !refused[0].contains("bytes="), "{refused:?}");
    let users = logs(&address, "http", "GET 127.0.0.1:{port}/users/{id}");
    assert_eq!((n(&users["total"]), values(&users).len()), (4, 3));

    // SQL: normalized text only; the literal ids 4 and 5 of two executions stay out.
    let select = logs(&address, "sql", "SELECT name FROM items WHERE id = ?");
    assert_eq!(n(&select["total"]), 5, "{select}");
    let kept = values(&select);
    assert_eq!(kept.len(), 3);
    for value in &kept {
        assert!(value.starts_with("duration_ns=") && value.contains(" error=false "), "{value}");
        assert!(value.ends_with(" statement=SELECT name FROM items WHERE id = ?"), "{value}");
        assert!(!value.contains("raw=") && !value.contains("= 4") && !value.contains("= 5"), "{value}");
    }
    let insert = values(&logs(&address, "sql", "INSERT INTO items (name) VALUES (?)"));
    assert!(insert.iter().all(|v| v.contains(" affected=1 ")), "{insert:?}");

    let (status, body) = fetch(&address, "/sql/nothing%20here/logs");
    assert_eq!(status, 404, "{body}");

    drop(child.stdin.take());
    assert!(child.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The JSON report's `debug.logged` rows of `section`, with `env`.
fn logged(env: &[(&str, &str)]) -> Vec<Value> {
    let dir = scratch();
    let out = program(&dir, "json").envs(env.iter().copied()).output().expect("service_case runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("report")).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    report["debug"]["logged"].as_array().unwrap_or_else(|| panic!("no debug.logged in {report}")).clone()
}

fn summary<'a>(rows: &'a [Value], section: &str, name: &str) -> &'a Value {
    rows.iter().find(|r| r["section"] == section && r["name"] == name).unwrap_or_else(|| panic!("no {section} {name}"))
}

#[test]
fn the_json_summary_lists_the_rows_and_raw_sql_only_with_sql_raw_logs() {
    let rows = logged(&[("HOTPATH_LOGS_LIMIT", "2")]);
    let users = summary(&rows, "server", "GET /users/{id}");
    assert_eq!((n(&users["total"]), n(&users["kept"])), (8, 2), "{users}");
    let select = summary(&rows, "sql", "SELECT name FROM items WHERE id = ?");
    assert_eq!(n(&select["total"]), 5);
    // The last execution ran `... WHERE id = 5`: only its normalized text is kept.
    let value = select["value"].as_str().unwrap();
    assert!(value.ends_with("statement=SELECT name FROM items WHERE id = ?") && !value.contains("raw="), "{value}");
    let diesel = summary(&rows, "sql", "SELECT name FROM users WHERE id = ? <- GET /users/{id}");
    assert_eq!(n(&diesel["total"]), 8);
    let text = serde_json::to_string(&rows).unwrap();
    assert!(!text.contains("lang=en") && !text.contains("id = 5"), "{text}");

    let rows = logged(&[("HOTPATH_SQL_RAW_LOGS", "1")]);
    let select = summary(&rows, "sql", "SELECT name FROM items WHERE id = ?");
    let value = select["value"].as_str().unwrap();
    assert!(value.ends_with(" raw=SELECT name FROM items WHERE id = 5"), "{value}");
    assert_eq!(n(&select["kept"]), 5, "the default limit keeps all five");
}
