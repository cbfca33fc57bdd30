//! The MCP server (`hotpath-mcp`) against real clients: the official Python SDK
//! (`mcp` on PyPI, installed by scripts/test into a venv it names in
//! HOTPATH_TEST_PYTHON) runs tests/mcp/client.py over Streamable HTTP and over the
//! `hotpath mcp` stdio bridge; raw HTTP checks what an SDK would never send.
#![cfg(all(feature = "hotpath-mcp", feature = "tokio", target_os = "linux"))]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::live::{send, Live};

const TOKEN: &str = "mcp-test-token";

/// The agent program with its server on a free port, behind a token if given, its
/// timeline recorded (for the `timeline` tool).
fn agent(token: Option<&str>) -> Live {
    agent_with(token, true)
}

fn agent_with(token: Option<&str>, timeline: bool) -> Live {
    let mut cmd = common::command("case_agent");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF")
        .env("HOTPATH_METRICS_PORT", "0")
        .env("HOTPATH_OUTPUT_FORMAT", "none")
        .env("HOTPATH_TIMELINE", if timeline { "on" } else { "off" })
        .arg("120");
    if let Some(token) = token {
        cmd.env("HOTPATH_AUTH_TOKEN", token);
    }
    Live::start(cmd)
}

/// A Python that can `import mcp`, or None (a failure under scripts/test).
fn python_with_mcp() -> Option<PathBuf> {
    let python = std::env::var_os("HOTPATH_TEST_PYTHON").map_or_else(|| PathBuf::from("python3"), PathBuf::from);
    let works = Command::new(&python).args(["-c", "import mcp"]).output().is_ok_and(|o| o.status.success());
    if works {
        return Some(python);
    }
    assert!(
        std::env::var_os("HOTPATH_TEST_SUITE").is_none(),
        "{} cannot import mcp; scripts/test installs it",
        python.display()
    );
    eprintln!("skipped: no Python with the `mcp` package (scripts/test installs one)");
    None
}

fn hotpath_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().and_then(Path::parent).unwrap().join("hotpath");
    assert!(path.exists(), "{} missing: run the tests with `cargo test --workspace`", path.display());
    path
}

#[test]
fn python_sdk_over_http_and_the_stdio_bridge() {
    let Some(python) = python_with_mcp() else { return };
    let live = agent(Some(TOKEN));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py");
    let keys: Vec<&str> = hotpath_model::SECTIONS.iter().map(|d| d.key).collect();
    let out = Command::new(python)
        .arg(script)
        .env("HOTPATH_TEST_SECTION_KEYS", keys.join(","))
        .args(["--url", &format!("http://{}/mcp", live.address), "--token", TOKEN])
        .args(["--pid", &live.child.id().to_string()])
        .args(cfg!(feature = "hotpath-alloc").then_some("--alloc"))
        .args(cfg!(feature = "hotpath-cpu").then_some("--cpu"))
        .arg("--bridge")
        .arg(hotpath_binary())
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stdout.contains("ok: "), "client failed:\n{stdout}\n{stderr}");
    for transport in ["[http] protocol 2026-07-28", "[stdio] protocol 2026-07-28", "[stdio-legacy] protocol 2025-11-25"]
    {
        assert!(stdout.contains(transport), "{stdout}");
    }
}

/// POSTs a body to /mcp with the token; returns status and body.
fn post(live: &Live, body: &str, extra: &str) -> (u16, String) {
    post_as(live, "127.0.0.1", &format!("Authorization: Bearer {TOKEN}\r\n{extra}"), body)
}

/// POSTs a body to /mcp naming `host`, with extra header lines.
fn post_as(live: &Live, host: &str, extra: &str, body: &str) -> (u16, String) {
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let reply = send(live.address, request.as_bytes());
    (reply.status, reply.body)
}

#[test]
fn malformed_messages_get_json_rpc_errors_and_the_server_goes_on() {
    let live = agent(Some(TOKEN));
    // Not JSON at all: a JSON-RPC parse error.
    let (status, body) = post(&live, "{not json", "");
    assert_eq!(status, 400, "{body}");
    let error: serde_json::Value = serde_json::from_str(&body).expect("a JSON-RPC error body");
    assert_eq!(error["error"]["code"], -32700, "{body}");

    // A tools/call before initialize on the legacy revision, then a well-formed one.
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
    let (status, body) = post(&live, init, "");
    assert_eq!(status, 200, "{body}");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap()["result"]["serverInfo"]["name"], "hotpath");

    // Arguments of the wrong shape entirely (a list): rmcp cannot read the request, and says so
    // as a JSON-RPC error for that id.
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hotspots","arguments":[1,2]}}"#;
    let (_, body) = post(&live, call, "MCP-Protocol-Version: 2025-11-25\r\n");
    let reply: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert!(reply["id"] == 2 && reply["error"]["code"].as_i64().is_some_and(|c| c < 0), "{body}");

    // Without the token: refused before MCP.
    let request = format!("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n\r\n{init}", init.len());
    assert_eq!(send(live.address, request.as_bytes()).status, 401);

    // Still serving.
    let ping = r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#;
    let (status, body) = post(&live, ping, "MCP-Protocol-Version: 2025-11-25\r\n");
    assert_eq!(status, 200, "{body}");
}

#[test]
fn without_a_token_only_loopback_host_names_are_served() {
    // The server is on loopback; a web page that rebinds its own name to 127.0.0.1 sends its
    // name as Host, and must not read the program's numbers.
    let live = agent(None);
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let version = "MCP-Protocol-Version: 2025-11-25\r\n";
    let (status, body) = post_as(&live, "attacker.example", version, ping);
    assert_eq!(status, 403, "{body}");
    for host in [format!("127.0.0.1:{}", live.address.port()), format!("localhost:{}", live.address.port())] {
        let (status, body) = post_as(&live, &host, version, ping);
        assert_eq!(status, 200, "{host}: {body}");
    }
}

#[test]
fn the_timeline_tool_says_how_to_turn_the_recorder_on() {
    let live = agent_with(Some(TOKEN), false);
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"timeline","arguments":{}}}"#;
    let (status, body) = post(&live, call, "MCP-Protocol-Version: 2025-11-25\r\n");
    assert_eq!(status, 200, "{body}");
    let reply: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(reply["result"]["isError"], true, "{body}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("timeline: ") && text.contains("HOTPATH_TIMELINE=on"), "{body}");
}
