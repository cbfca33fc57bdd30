//! The HTTP and SQL instruments against real components, in one test target: each
//! test runs `service_case` (an axum server on a loopback port, driven by reqwest and
//! ureq clients, with SQLite through diesel and sqlx) as a process of its own and
//! checks its report against exactly what the program sent. Built without the
//! `profile` feature (hotpath off), the same program must run unchanged and report nothing.
#![cfg_attr(not(feature = "profile"), allow(dead_code, unused_imports))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::Value;

/// A fresh folder under the target dir for one run's databases and report.
fn scratch() -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "hotpath-services-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
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
        .env_remove("HOTPATH_ROUTE_SCOPE")
        .env_remove("HOTPATH_ENTRIES_LIMIT")
        .env_remove("HOTPATH_SQL_RAW_LOGS");
    cmd
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("service_case runs");
    assert!(out.status.success(), "service_case failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// The JSON report of one run with `env`.
fn report(env: &[(&str, &str)]) -> Value {
    let dir = scratch();
    run(program(&dir, "json").envs(env.iter().copied()));
    let text = std::fs::read_to_string(dir.join("report")).expect("a report file");
    let _ = std::fs::remove_dir_all(&dir);
    serde_json::from_str(&text).expect("a JSON report")
}

fn rows<'a>(report: &'a Value, section: &str) -> &'a Vec<Value> {
    report[section]["rows"].as_array().unwrap_or_else(|| panic!("no {section} rows in {report}"))
}

fn row<'a>(report: &'a Value, section: &str, name: &str) -> &'a Value {
    let rows = rows(report, section);
    rows.iter().find(|r| r["name"] == name).unwrap_or_else(|| {
        let names: Vec<&Value> = rows.iter().map(|r| &r["name"]).collect();
        panic!("no {section} row {name:?} in {names:?}")
    })
}

fn n(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// `[2xx, 3xx, 4xx, 5xx]` of a row.
fn classes(row: &Value) -> [u64; 4] {
    ["status_2xx", "status_3xx", "status_4xx", "status_5xx"].map(|k| n(&row["status"][k]))
}

#[cfg(feature = "profile")]
#[test]
fn server_routes_clients_and_queries_count_what_was_sent() {
    let r = report(&[]);

    // Server: per method and matched route; unmatched errors in one row; a fallback
    // that answers by its path; proxied requests counted once each.
    let users = row(&r, "server", "GET /users/{id}");
    assert_eq!((n(&users["requests"]), classes(users)), (8, [7, 0, 1, 0]), "{users}");
    assert_eq!(users["matched"], true);
    let crash = row(&r, "server", "GET /crash");
    assert_eq!((n(&crash["requests"]), classes(crash)), (2, [0, 0, 0, 2]));
    assert_eq!(classes(row(&r, "server", "POST /users")), [2, 0, 0, 0]);
    assert_eq!(classes(row(&r, "server", "GET /proxy/{id}")), [2, 0, 0, 0]);
    let unmatched = row(&r, "server", "GET <unmatched>");
    assert_eq!((classes(unmatched), &unmatched["matched"]), ([0, 0, 1, 0], &Value::Bool(false)));
    assert_eq!(classes(row(&r, "server", "GET /pages/about")), [1, 0, 0, 0]);
    assert_eq!(n(&r["server"]["requests"]), 16);
    for route in rows(&r, "server") {
        assert_eq!((n(&route["in_flight"]), n(&route["cancelled"])), (0, 0), "{route}");
        // Requests no route matched are in flight on the method's `<unmatched>` row.
        assert!(n(&route["in_flight_max"]) >= 1 || route["matched"] == false, "{route}");
        assert_eq!(n(&route["latency"]["count"]), n(&route["requests"]));
        assert!(n(&route["latency"]["avg_ns"]) > 0);
    }

    // Route scope: each user request ran one diesel query and the measured render();
    // each proxy request made one outgoing call.
    let scope = &users["scope"];
    assert_eq!((n(&scope["requests"]), n(&scope["sql_queries"]), n(&scope["http_calls"])), (8, 8, 0), "{scope}");
    assert!(n(&scope["sql_ns"]) > 0 && n(&scope["function_ns"]) > 0, "{scope}");
    let proxy = &row(&r, "server", "GET /proxy/{id}")["scope"];
    assert_eq!((n(&proxy["http_calls"]), n(&proxy["sql_queries"])), (2, 0), "{proxy}");
    assert!(n(&proxy["http_ns"]) > 0);
    assert_eq!(r["server"]["route_scope"], true);
    // hotpath-alloc: allocations per request, summed over the polls.
    assert!(n(&users["alloc"]["avg_bytes"]) > 0, "{users}");

    // HTTP clients: endpoints with ids and the port folded, query dropped; the proxy's
    // calls attributed to its route; ureq's status errors and a refused connection.
    let port = "127.0.0.1:{port}";
    let get_user = row(&r, "http", &format!("GET {port}/users/{{id}}"));
    assert_eq!((n(&get_user["calls"]), classes(get_user), n(&get_user["errors"])), (4, [3, 0, 1, 0], 1));
    assert_eq!(get_user["client"], "reqwest");
    let proxied = row(&r, "http", &format!("GET {port}/users/{{id}} <- GET /proxy/{{id}}"));
    assert_eq!(
        (n(&proxied["calls"]), classes(proxied), &proxied["route"]),
        (2, [2, 0, 0, 0], &Value::from("GET /proxy/{id}"))
    );
    assert_eq!(n(&row(&r, "http", &format!("GET {port}/pages/about"))["calls"]), 1);
    assert_eq!(n(&row(&r, "http", &format!("POST {port}/users"))["calls"]), 2);
    assert!(n(&get_user["sized_responses"]) >= 3 && n(&get_user["response_bytes"]) > 0, "{get_user}");
    let ext = row(&r, "http", &format!("ext: GET {port}/users/{{id}}"));
    assert_eq!(
        (n(&ext["calls"]), classes(ext), &ext["client"], &ext["label"]),
        (2, [2, 0, 0, 0], &Value::from("ureq"), &Value::from("ext"))
    );
    let ext_crash = row(&r, "http", &format!("ext: GET {port}/crash"));
    assert_eq!((classes(ext_crash), n(&ext_crash["errors"]), n(&ext_crash["transport_errors"])), ([0, 0, 0, 1], 1, 0));
    let refused = row(&r, "http", &format!("ext: GET {port}/"));
    assert_eq!((n(&refused["calls"]), n(&refused["transport_errors"]), n(&refused["errors"])), (1, 1, 1));
    assert_eq!(n(&r["http"]["calls"]), rows(&r, "http").iter().map(|x| n(&x["calls"])).sum::<u64>());
    assert_eq!(n(&r["http"]["calls"]), 18);

    // SQL: diesel queries inside handlers carry their route; sqlx's normalized
    // statements fold literals, placeholders and IN lists.
    let diesel_select = row(&r, "sql", "SELECT name FROM users WHERE id = ? <- GET /users/{id}");
    assert_eq!((n(&diesel_select["calls"]), &diesel_select["library"]), (8, &Value::from("diesel")));
    assert_eq!(n(&row(&r, "sql", "INSERT INTO users (name) VALUES (?) <- POST /users")["calls"]), 2);
    assert_eq!(
        n(&row(&r, "sql", "INSERT INTO users (name) VALUES (?)")["calls"]),
        3,
        "the setup's inserts, outside requests"
    );
    let insert = row(&r, "sql", "INSERT INTO items (name) VALUES (?)");
    assert_eq!((n(&insert["calls"]), n(&insert["rows_affected"]), &insert["library"]), (5, 5, &Value::from("sqlx")));
    let select = row(&r, "sql", "SELECT name FROM items WHERE id = ?");
    assert_eq!((n(&select["calls"]), n(&select["rows_returned"])), (5, 5));
    assert_eq!(n(&row(&r, "sql", "SELECT COUNT(*) FROM items WHERE id IN (?)")["calls"]), 1);
    assert_eq!(n(&row(&r, "sql", "select count(*) from items where id in (?)")["calls"]), 1);
    assert!(rows(&r, "sql").iter().all(|q| q.get("raw_example").is_none()), "raw text only with HOTPATH_SQL_RAW_LOGS");
    assert!(n(&select["latency"]["avg_ns"]) > 0);
}

#[cfg(feature = "profile")]
#[test]
fn sql_rows_count_by_kind_hold_no_literal_and_share_the_total() {
    let r = report(&[]);
    let text = r["sql"].to_string();
    for secret in ["alice", "bob", "secret", "tok", "DEADBEEF", "CAFE", "7771", "batch"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    // A read counts what it returned, not the 4 rows SQLite's changes() still holds.
    let all = row(&r, "sql", "SELECT id, name FROM items ORDER BY id");
    assert_eq!((n(&all["rows_returned"]), n(&all["rows_affected"])), (5, 0), "{all}");
    let update = row(&r, "sql", "UPDATE items SET name = name || ? WHERE id <= ?");
    assert_eq!((n(&update["rows_returned"]), n(&update["rows_affected"])), (0, 4), "{update}");
    // Comments dropped: one row for both users; batch sizes fold to one shape.
    assert_eq!(n(&row(&r, "sql", "SELECT name FROM items WHERE name = ?")["calls"]), 2);
    assert_eq!(n(&row(&r, "sql", "SELECT ?, ?, ?, ?")["calls"]), 1);
    let batches = row(&r, "sql", "INSERT INTO items (id, name) VALUES (?, ?)");
    assert_eq!((n(&batches["calls"]), n(&batches["rows_affected"])), (3, 10), "{batches}");
    // Two long statements that differ at their end: two capped rows.
    let long: Vec<&str> =
        rows(&r, "sql").iter().filter_map(|q| q["query"].as_str()).filter(|q| q.contains("column_199")).collect();
    assert_eq!(long.len(), 2, "{long:?}");
    assert!(long.iter().all(|q| q.len() <= 1024 && q.contains(" … ") && q.starts_with("SELECT name AS column_0")));
    assert!(long.iter().any(|q| q.contains("ORDER BY id #")) && long.iter().any(|q| q.contains("ORDER BY name #")));
    // % Total: each row's share of the section's time.
    let total = n(&r["sql"]["total_ns"]);
    let shares: f64 = rows(&r, "sql").iter().map(|q| q["total_percent"].as_f64().unwrap()).sum();
    assert!(total > 0 && (shares - 100.0).abs() < 1.0, "{total} {shares}");
    // Source: the measured function a query or call was made in.
    let audit = row(&r, "sql", "SELECT ? in service_case::audit");
    assert_eq!((n(&audit["calls"]), &audit["function"]), (1, &Value::from("service_case::audit")));
    let port = "127.0.0.1:{port}";
    let ping = row(&r, "http", &format!("ext: GET {port}/ in service_case::ping"));
    assert_eq!((n(&ping["transport_errors"]), &ping["function"]), (1, &Value::from("service_case::ping")));
    for section in ["server", "http"] {
        let shares: f64 = rows(&r, section).iter().map(|q| q["total_percent"].as_f64().unwrap()).sum();
        assert!(n(&r[section]["total_ns"]) > 0 && (shares - 100.0).abs() < 1.0, "{section}: {shares}");
    }
}

#[cfg(feature = "profile")]
#[test]
fn route_scope_off_attributes_nothing() {
    let r = report(&[("HOTPATH_ROUTE_SCOPE", "false")]);
    assert_eq!(r["server"]["route_scope"], false);
    assert!(rows(&r, "server").iter().all(|x| x.get("scope").is_none()));
    assert_eq!(n(&row(&r, "sql", "SELECT name FROM users WHERE id = ?")["calls"]), 8);
    assert!(rows(&r, "sql").iter().chain(rows(&r, "http")).all(|x| x.get("route").is_none()));
    assert_eq!(n(&row(&r, "http", "GET 127.0.0.1:{port}/users/{id}")["calls"]), 6);
}

#[cfg(feature = "profile")]
#[test]
fn keys_past_the_entries_limit_count_in_other() {
    let r = report(&[("HOTPATH_ENTRIES_LIMIT", "2"), ("HOTPATH_SQL_RAW_LOGS", "1")]);
    for section in ["server", "http", "sql"] {
        let rows = rows(&r, section);
        assert_eq!(rows.len(), 3, "{section}: {rows:?}");
        assert_eq!(rows.iter().filter(|x| x["name"] == "<other>").count(), 1, "{section}");
    }
    let calls: u64 = rows(&r, "server").iter().map(|x| n(&x["requests"])).sum();
    assert_eq!(calls, 16, "nothing is lost past the limit");
    let warnings: Vec<&str> = r["meta"]["warnings"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    for what in ["server routes", "HTTP endpoints", "SQL queries"] {
        let line = format!("more than 2 distinct {what} (HOTPATH_ENTRIES_LIMIT)");
        assert_eq!(warnings.iter().filter(|w| w.contains(&line)).count(), 1, "{warnings:?}");
    }
    // The raw statement is kept for the rows made before the limit.
    let raw: Vec<&str> = rows(&r, "sql").iter().filter_map(|x| x["raw_example"].as_str()).collect();
    assert!(raw.iter().any(|s| s.contains("CREATE TABLE IF NOT EXISTS users")), "{raw:?}");
}

#[cfg(feature = "profile")]
#[test]
fn raw_statements_only_with_sql_raw_logs() {
    let r = report(&[("HOTPATH_SQL_RAW_LOGS", "1")]);
    let count = row(&r, "sql", "SELECT COUNT(*) FROM items WHERE id IN (?)");
    assert_eq!(count["raw_example"], "SELECT COUNT(*) FROM items WHERE id IN (1, 2, 3)");
}

#[cfg(feature = "profile")]
#[test]
fn table_report_has_the_three_sections() {
    let dir = scratch();
    run(program(&dir, "table").env("HOTPATH_NAME_WIDTH", "60"));
    let text = std::fs::read_to_string(dir.join("report")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    // Long queries are cut in their middle: the ends that tell them apart stay.
    let long: Vec<&str> = text.lines().filter(|l| l.starts_with("| SELECT name AS column_0…")).collect();
    assert_eq!(long.len(), 2, "{text}");
    assert!(long.iter().any(|l| l.contains("ORDER BY id #")) && long.iter().any(|l| l.contains("ORDER BY name #")));
    let audit = text.lines().find(|l| l.starts_with("| SELECT ? ") && l.contains("| service_case::audit |"));
    assert!(audit.is_some(), "the Source column names the measured function:\n{text}");
    for needle in [
        "sql - SQL queries per normalized statement; Rows = returned by reads, affected by writes.",
        "| Source ",
        "| % Total |",
        "server - HTTP requests served",
        "| GET /users/{id} ",
        "| SQL/req ",
        "| Alloc/req ",
        "http - Outgoing HTTP calls",
        "sql - SQL queries",
        "| SELECT name FROM users WHERE id = ? ",
    ] {
        assert!(text.contains(needle), "{needle:?} not in\n{text}");
    }
    let routed = text
        .lines()
        .filter(|l| l.starts_with("| GET 127.0.0.1:{port}/users/{id} ") && l.contains("| GET /proxy/{id} "));
    assert_eq!(routed.count(), 1, "the HTTP row with its route:\n{text}");
}

/// `GET path` on the live server: the body.
fn fetch(address: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "GET {path}: {head}");
    body.to_string()
}

#[cfg(feature = "profile")]
#[test]
fn live_endpoints_and_prometheus_metrics() {
    let dir = scratch();
    let mut child = program(&dir, "none")
        .arg("wait")
        .env_remove("HOTPATH_METRICS_SERVER_OFF")
        .env("HOTPATH_METRICS_PORT", "0")
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

    let server: Value = serde_json::from_str(&fetch(&address, "/server")).unwrap();
    let text = server.to_string();
    assert!(text.contains("GET /users/{id}"), "{text}");
    let http: Value = serde_json::from_str(&fetch(&address, "/http")).unwrap();
    assert!(http.to_string().contains("ext: GET 127.0.0.1:{port}/crash"), "{http}");
    let sql: Value = serde_json::from_str(&fetch(&address, "/sql")).unwrap();
    assert!(sql.to_string().contains("SELECT name FROM items WHERE id = ?"), "{sql}");

    let metrics = fetch(&address, "/metrics");
    for family in [
        "hotpath_server_requests_total{route=\"GET /users/{id}\"} 8",
        "hotpath_server_responses_total{route=\"GET /crash\",class=\"5xx\"} 2",
        "hotpath_server_request_seconds_bucket{route=\"GET /users/{id}\",le=",
        "hotpath_http_client_call_seconds_bucket{endpoint=\"ext: GET 127.0.0.1:{port}/users/{id}\",le=",
        "hotpath_http_client_errors_total{endpoint=\"ext: GET 127.0.0.1:{port}/\"} 1",
        "hotpath_sql_queries_total{query=\"INSERT INTO items (name) VALUES (?)\"} 5",
        "hotpath_sql_query_seconds_count{query=\"SELECT name FROM items WHERE id = ?\"} 5",
    ] {
        assert!(metrics.contains(family), "{family:?} not in\n{metrics}");
    }
    let mut promtool = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("promtool is installed (scripts/test installs it)");
    promtool.stdin.take().unwrap().write_all(metrics.as_bytes()).unwrap();
    let checked = promtool.wait_with_output().unwrap();
    assert!(
        checked.status.success(),
        "promtool: {}{}",
        String::from_utf8_lossy(&checked.stdout),
        String::from_utf8_lossy(&checked.stderr)
    );

    drop(child.stdin.take());
    assert!(child.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(not(feature = "profile"))]
#[test]
fn with_hotpath_off_the_program_runs_unchanged_and_reports_nothing() {
    let dir = scratch();
    let out = run(&mut program(&dir, "json"));
    assert!(!dir.join("report").exists(), "no report with hotpath off");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("[hotpath]"));
    let _ = std::fs::remove_dir_all(&dir);
}
