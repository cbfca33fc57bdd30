//! Every `HOTPATH_*` variable of hotpath-rs 0.30.3 (SEED-SYSTEM-API.md §2.5) set on a
//! real program: each is honoured (no warning, and the behaviour where a run shows
//! it) or answered by exactly one warning line; and every token variable closes
//! every surface of the live server (JSON, `/metrics`, `/mcp`) over real HTTP.
#![cfg(feature = "hotpath")]

mod common;

use common::live::{live_command, Live};
use common::{command, run, stderr, stdout};

/// What a program does with a variable.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Here {
    /// Applied with hotpath-rs's meaning: no warning.
    Honoured,
    /// One warning line naming the variable.
    Warned,
    /// Read by `hotpath console` or `hotpath compare`: the program says nothing.
    Elsewhere,
}

use Here::*;

/// The whole table, with values a hotpath-rs user would set.
const SEED_VARIABLES: &[(&str, &str, Here)] = &[
    ("HOTPATH_OUTPUT_FORMAT", "json", Honoured),
    ("HOTPATH_OUTPUT_PATH", "", Honoured), // set to a file below
    ("HOTPATH_REPORT", "auto", Honoured),
    ("HOTPATH_REPORT_LABEL", "seed-run", Honoured),
    ("HOTPATH_USER_METADATA", "team=core,ci=1", Honoured),
    ("HOTPATH_LIMIT", "10", Honoured),
    ("HOTPATH_FUNCTIONS_LIMIT", "1", Honoured),
    ("HOTPATH_CHANNELS_LIMIT", "3", Honoured),
    ("HOTPATH_STREAMS_LIMIT", "3", Honoured),
    ("HOTPATH_FUTURES_LIMIT", "3", Honoured),
    ("HOTPATH_THREADS_LIMIT", "3", Honoured),
    ("HOTPATH_RW_LOCKS_LIMIT", "3", Honoured),
    ("HOTPATH_MUTEXES_LIMIT", "3", Honoured),
    ("HOTPATH_SQL_LIMIT", "3", Honoured),
    ("HOTPATH_HTTP_LIMIT", "3", Honoured),
    ("HOTPATH_SERVER_LIMIT", "3", Honoured),
    ("HOTPATH_IO_LIMIT", "3", Honoured),
    ("HOTPATH_FOCUS", "case_exit_paths", Honoured),
    ("HOTPATH_EXCLUDE_WRAPPER", "1", Honoured),
    ("HOTPATH_FUNCTIONS_NAME_DEPTH", "0", Honoured),
    ("HOTPATH_LOGS_LIMIT", "20", Honoured),
    ("HOTPATH_MAX_LOG_LEN", "512", Honoured),
    ("HOTPATH_ENTRIES_LIMIT", "100", Honoured),
    ("HOTPATH_DRAIN_INTERVAL_MS", "25", Warned),
    ("HOTPATH_DRAIN_INTERVAL", "25", Warned),
    ("HOTPATH_THREADS_INTERVAL_MS", "100", Honoured),
    ("HOTPATH_TOKIO_RUNTIME_INTERVAL_MS", "500", Honoured),
    ("HOTPATH_SHOW_INTERNAL_THREADS", "0", Honoured),
    ("HOTPATH_SHUTDOWN_MS", "600000", Honoured),
    ("HOTPATH_TIME_SAMPLING_RATE", "1.0", Honoured),
    ("HOTPATH_FUNCTIONS_TIME_SAMPLING_RATE", "1.0", Honoured),
    ("HOTPATH_MUTEXES_TIME_SAMPLING_RATE", "1.0", Honoured),
    ("HOTPATH_RW_LOCKS_TIME_SAMPLING_RATE", "1.0", Honoured),
    ("HOTPATH_FUTURES_TIME_SAMPLING_RATE", "1.0", Honoured),
    ("HOTPATH_CHANNELS_TIME_SAMPLING_RATE", "1.0", Honoured),
    ("HOTPATH_IO_TIME_SAMPLING_RATE", "1.0", Honoured),
    ("HOTPATH_ALLOC_METRIC", "count", Warned),
    ("HOTPATH_ALLOC_CUMULATIVE", "1", Honoured),
    ("HOTPATH_ALLOC_MAX_DEPTH", "32", Warned),
    ("HOTPATH_CPU_INCLUSIVE", "1", Warned),
    ("HOTPATH_KEEP_INLINE", "1", Warned),
    ("HOTPATH_SAMPLY_BIN", "samply", Warned),
    ("HOTPATH_SAMPLY_WRAPPER_BIN", "hotpath-samply", Warned),
    ("HOTPATH_DISABLE_SAMPLY_LOAD", "1", Warned),
    ("HOTPATH_CALLGRIND_OUT_FILE", "callgrind.out.%p", Honoured),
    // Read with hotpath-callgrind; outside Callgrind the run says it has nothing to merge.
    ("HOTPATH_MERGE_REPORT", "native.json", if cfg!(feature = "hotpath-callgrind") { Warned } else { Honoured }),
    ("HOTPATH_METRICS_PORT", "6770", Honoured),
    ("HOTPATH_METRICS_AUTH_TOKEN", "seed-metrics", Honoured),
    ("HOTPATH_METRICS_SERVER_OFF", "1", Honoured),
    ("HOTPATH_METRICS_SERVER_ON", "1", Honoured),
    ("HOTPATH_METRICS_HOST", "http://localhost", Honoured),
    ("HOTPATH_MCP_PORT", "6771", Warned),
    ("HOTPATH_MCP_AUTH_TOKEN", "seed-mcp", Honoured),
    ("HOTPATH_PROMETHEUS_PORT", "6772", Warned),
    ("HOTPATH_PROMETHEUS_HOST", "127.0.0.1", Honoured), // the live server's address
    ("HOTPATH_PROMETHEUS_AUTH_TOKEN", "seed-prom", Honoured),
    ("HOTPATH_PROMETHEUS_FAST_BUCKETS", "0.00001,0.001", Warned),
    ("HOTPATH_PROMETHEUS_SLOW_BUCKETS", "0.1,1,10", Warned),
    ("HOTPATH_ROUTE_SCOPE", "1", Honoured),
    ("HOTPATH_SQL_RAW_LOGS", "1", Honoured),
    ("HOTPATH_TUI_REFRESH_INTERVAL_MS", "500", Elsewhere),
    ("HOTPATH_TUI_TAB", "2", Elsewhere),
    ("HOTPATH_TUI_AUTO_EXPAND_LOGS", "1", Elsewhere),
    ("HOTPATH_DISABLE_HINTS", "1", Honoured),
    ("HOTPATH_UPLOAD", "1", Warned),
    ("HOTPATH_BENCHMARK", "default", Elsewhere),
    ("HOTPATH_API_URL", "https://hotpath.rs", Warned),
    ("HOTPATH_API_TOKEN", "seed-api-secret", Warned),
    ("HOTPATH_UPLOAD_RESPONSE_PATH", "upload.json", Warned),
    ("HOTPATH_POLICY_PATH", "hotpath/policy.toml", Elsewhere),
    ("HOTPATH_SOURCE_ROOT", ".", Warned),
    ("HOTPATH_CRITERION_ITERATIONS", "3", Elsewhere), // read by hotpath::criterion
    ("HOTPATH_DEV_LOG_PATH", "dev.log", Warned),
    ("HOTPATH_META_SHUTDOWN_MS", "1000", Warned),
    ("HOTPATH_META_OUTPUT_PATH", "meta.json", Warned),
    ("HOTPATH_META_REPORT", "all", Warned),
];

#[test]
fn every_seed_variable_is_honoured_or_warned_about() {
    let dir = std::env::temp_dir().join(format!("hotpath-seed-env-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report_path = dir.join("report.json");
    let mut cmd = command("case_exit_paths");
    for (name, value, _) in SEED_VARIABLES {
        cmd.env(name, value);
    }
    cmd.env("HOTPATH_OUTPUT_PATH", &report_path);
    let out = run(&mut cmd);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("[hotpath] warning: ")).collect();
    for (name, _, here) in SEED_VARIABLES {
        let about: Vec<&&str> = warnings.iter().filter(|w| names(&w[19..], name)).collect();
        match here {
            Warned => assert_eq!(about.len(), 1, "one warning about {name}:\n{err}"),
            Honoured | Elsewhere => assert!(about.is_empty(), "{name} is not warned about:\n{err}"),
        }
    }
    // Every warning is about one of the table's variables, and a secret stays hidden.
    let warned = SEED_VARIABLES.iter().filter(|(_, _, h)| *h == Warned).count();
    assert_eq!(warnings.len(), warned, "{err}");
    assert!(!err.contains("seed-api-secret") && !err.contains("seed-metrics"), "{err}");
    // The ones a run shows: format, path, label, metadata, limit, focus, wrapper, depth.
    assert!(stdout(&out).is_empty(), "the report went to the file");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    let meta = &report["meta"];
    assert_eq!(meta["label"], "seed-run");
    let user = &report["user_metadata"];
    assert_eq!((user["team"].as_str(), user["ci"].as_str()), (Some("core"), Some("1")));
    assert_eq!(meta["focus"], "case_exit_paths");
    let rows = report["functions_timing"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "HOTPATH_FUNCTIONS_LIMIT beats HOTPATH_LIMIT: {rows:?}");
    assert_eq!(rows[0]["name"], "case_exit_paths::work", "the wrapper row is excluded");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_hint_is_printed_in_the_table() {
    let out = run(command("case_exit_paths").env("HOTPATH_DISABLE_HINTS", "0"));
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("case_exit_paths::work") && !text.contains("hotpath.rs"), "{text}");
}

/// True when `warning` is about variable `name` (`NAME=value ...`, `NAME (value hidden)`, `NAME: ...`).
fn names(warning: &str, name: &str) -> bool {
    warning.strip_prefix(name).is_some_and(|rest| rest.starts_with(['=', ' ', ':']))
}

/// `token` values the surfaces refuse; `opens`: a token that opens them.
fn assert_closed(live: &Live, opens: &str, what: &str) {
    for path in ["/functions_timing", "/profiler_status", "/report", "/metrics", "/mcp"] {
        for header in [String::new(), "Authorization: Bearer wrong\r\n".to_string()] {
            let reply = live.get(path, &header);
            assert_eq!(reply.status, 401, "{what}: GET {path} with {header:?}: {reply:?}");
        }
        let reply = live.get(path, &format!("Authorization: Bearer {opens}\r\n"));
        assert_ne!(reply.status, 401, "{what}: GET {path} with its token: {reply:?}");
    }
    assert_eq!(live.get("/functions_timing", &format!("Authorization: Bearer {opens}\r\n")).status, 200);
    assert_eq!(live.get("/metrics", &format!("Authorization: Bearer {opens}\r\n")).status, 200);
}

#[test]
fn each_token_variable_closes_every_surface() {
    for name in
        ["HOTPATH_AUTH_TOKEN", "HOTPATH_METRICS_AUTH_TOKEN", "HOTPATH_PROMETHEUS_AUTH_TOKEN", "HOTPATH_MCP_AUTH_TOKEN"]
    {
        let mut cmd = live_command(30);
        cmd.env(name, "s3cr3t-token");
        let live = Live::start(cmd);
        assert_closed(&live, "s3cr3t-token", name);
    }
}

#[test]
fn distinct_tokens_each_open_their_own_surface() {
    let mut cmd = live_command(30);
    cmd.env("HOTPATH_METRICS_AUTH_TOKEN", "json-t").env("HOTPATH_PROMETHEUS_AUTH_TOKEN", "prom-t");
    cmd.env("HOTPATH_MCP_AUTH_TOKEN", "mcp-t");
    let live = Live::start(cmd);
    let status = |path: &str, token: &str| live.get(path, &format!("Authorization: Bearer {token}\r\n")).status;
    assert_eq!(status("/functions_timing", "json-t"), 200);
    assert_eq!(status("/metrics", "prom-t"), 200);
    assert_ne!(status("/mcp", "mcp-t"), 401);
    for (path, others) in
        [("/functions_timing", ["prom-t", "mcp-t"]), ("/metrics", ["json-t", "mcp-t"]), ("/mcp", ["json-t", "prom-t"])]
    {
        assert_eq!(live.get(path, "").status, 401, "{path} without a token");
        for token in others {
            assert_eq!(status(path, token), 401, "{path} opened by another surface's token {token}");
        }
    }
}

#[test]
fn an_unusable_token_refuses_every_request() {
    for name in ["HOTPATH_METRICS_AUTH_TOKEN", "HOTPATH_PROMETHEUS_AUTH_TOKEN", "HOTPATH_MCP_AUTH_TOKEN"] {
        let mut cmd = live_command(30);
        cmd.env(name, "");
        let live = Live::start(cmd);
        for path in ["/functions_timing", "/metrics", "/mcp"] {
            assert_eq!(live.get(path, "Authorization: Bearer \r\n").status, 401, "{name}: {path}");
        }
    }
}
