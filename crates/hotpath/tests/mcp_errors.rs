//! MCP messages a client may get wrong are answered with JSON-RPC errors it can
//! read (never rmcp's plain-text HTTP errors): batches, `null`, a wrong `jsonrpc`,
//! params that are not an object, tool arguments that are a list, an unknown
//! `MCP-Protocol-Version` header; and a request with two Content-Length headers is
//! refused. Raw HTTP against a running `case_agent`.
#![cfg(all(feature = "hotpath-mcp", feature = "tokio", target_os = "linux"))]

mod common;

use serde_json::{json, Value};

use common::live::{send, Live, Reply};

const TOKEN: &str = "mcp-errors-token";
const VERSION: &str = "MCP-Protocol-Version: 2025-11-25\r\n";

fn agent() -> Live {
    let mut cmd = common::command("case_agent");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF")
        .env("HOTPATH_METRICS_PORT", "0")
        .env("HOTPATH_OUTPUT_FORMAT", "none")
        .env("HOTPATH_AUTH_TOKEN", TOKEN)
        .arg("120");
    Live::start(cmd)
}

fn post(live: &Live, body: &str, extra: &str) -> Reply {
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    send(live.address, request.as_bytes())
}

/// The JSON-RPC error of a reply: (code, id, message).
fn error_of(reply: &Reply) -> (i64, Value, String) {
    assert_eq!(reply.header("content-type"), Some("application/json"), "{reply:?}");
    let body: Value = serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("not JSON ({e}): {reply:?}"));
    assert_eq!(body["jsonrpc"], "2.0", "{reply:?}");
    let code = body["error"]["code"].as_i64().unwrap_or_else(|| panic!("no error code: {reply:?}"));
    (code, body["id"].clone(), body["error"]["message"].as_str().unwrap_or_default().to_string())
}

#[test]
fn messages_that_are_not_json_rpc_get_json_rpc_errors() {
    let live = agent();
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let cases = [
        (format!("[{ping}]"), -32600, Value::Null),
        ("null".to_string(), -32600, Value::Null),
        ("\"ping\"".to_string(), -32600, Value::Null),
        (r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#.to_string(), -32600, json!(7)),
        (r#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":"all"}"#.to_string(), -32602, json!(8)),
    ];
    for (body, code, id) in cases {
        let reply = post(&live, &body, VERSION);
        assert_eq!(reply.status, 400, "{body}: {reply:?}");
        let (got, got_id, _) = error_of(&reply);
        assert_eq!((got, got_id), (code, id), "{body}: {reply:?}");
    }
    assert_eq!(post(&live, ping, VERSION).status, 200, "still serving");
}

#[test]
fn a_list_as_tool_arguments_is_invalid_params() {
    let live = agent();
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hotspots","arguments":[1,2]}}"#;
    let reply = post(&live, call, VERSION);
    let (code, id, message) = error_of(&reply);
    assert_eq!((code, id), (-32602, json!(2)), "{reply:?}");
    assert!(message.contains("tools/call"), "{message}");
}

#[test]
fn an_unknown_protocol_version_header_is_refused() {
    let live = agent();
    let ping = r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#;
    let reply = post(&live, ping, "MCP-Protocol-Version: 1999-01-01\r\n");
    assert_eq!(reply.status, 400, "{reply:?}");
    let (code, id, message) = error_of(&reply);
    assert_eq!((code, id), (-32600, json!(4)), "{reply:?}");
    assert!(message.contains("1999-01-01") && message.contains("2025-11-25"), "{message}");
    let init = r#"{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
    let reply = post(&live, init, "MCP-Protocol-Version: 1999-01-01\r\n");
    assert_eq!((reply.status, error_of(&reply).0), (400, -32600), "{reply:?}");
}

#[test]
fn two_content_lengths_are_refused() {
    let live = agent();
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{VERSION}Content-Length: {}\r\nContent-Length: 2\r\n\r\n{ping}",
        ping.len()
    );
    let reply = send(live.address, request.as_bytes());
    assert_eq!(reply.status, 400, "{reply:?}");
}
