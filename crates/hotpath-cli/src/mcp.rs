//! `hotpath mcp`: the stdio transport of MCP, bridged to a running program's
//! Streamable HTTP endpoint (`/mcp` on its metrics server), for clients that
//! spawn their servers as subprocesses.
//!
//! Each line on stdin is one JSON-RPC message; it is POSTed to `/mcp` and the
//! answer (a JSON body, or the events of an SSE stream) goes to stdout, one
//! message per line. When the program cannot be reached, a request gets a
//! JSON-RPC error naming the address, and the bridge keeps running: the program
//! may start (or restart) later.
//!
//! HTTP carries a few facts of the message in headers, which the bridge fills in
//! from the body: `MCP-Protocol-Version` (from the request's `_meta`, or as agreed
//! at `initialize`), and since 2026-07-28 `Mcp-Method` and `Mcp-Name` (SEP-2243).

use std::io::{BufRead, Write};
use std::time::Duration;

use anyhow::Context;
use base64::Engine;
use serde_json::{json, Value};

use crate::server::ServerArgs;

/// Arguments of `hotpath mcp`.
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    server: ServerArgs,
}

/// JSON-RPC error code for a server that cannot be reached or refused (implementation-defined range).
const UNREACHABLE: i64 = -32000;

struct Bridge {
    agent: ureq::Agent,
    url: String,
    token: Option<String>,
    /// The revision agreed at initialize, sent with every later request as HTTP requires.
    protocol_version: Option<String>,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<()> {
    let config =
        ureq::Agent::config_builder().timeout_global(Some(Duration::from_secs(60))).http_status_as_error(false).build();
    let mut bridge = Bridge {
        agent: config.into(),
        url: format!("http://{}/mcp", args.server.address()),
        token: args.server.mcp_token(),
        protocol_version: None,
    };
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = line.context("cannot read stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        for answer in bridge.forward(&line) {
            writeln!(stdout, "{answer}").context("cannot write stdout")?;
        }
        stdout.flush().context("cannot write stdout")?;
    }
    Ok(())
}

impl Bridge {
    /// POSTs one message; returns the messages to print (none for a notification).
    fn forward(&mut self, line: &str) -> Vec<String> {
        let message: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return vec![error(&Value::Null, -32700, &format!("parse error: {e}"))],
        };
        let id = message.get("id").cloned();
        let initialize = message.get("method").and_then(Value::as_str) == Some("initialize");
        let answers = match self.post(line, &self.headers(&message)) {
            Ok(answers) => answers,
            Err(e) => {
                eprintln!("hotpath mcp: {e}");
                return id.map(|id| error(&id, UNREACHABLE, &e)).into_iter().collect();
            }
        };
        if initialize {
            let agreed = answers.iter().find_map(|a| a["result"]["protocolVersion"].as_str().map(String::from));
            self.protocol_version = agreed.or(self.protocol_version.take());
        }
        answers.iter().map(Value::to_string).collect()
    }

    /// The headers HTTP wants beside this message's body.
    fn headers(&self, message: &Value) -> Vec<(&'static str, String)> {
        let mut headers = Vec::new();
        let meta_version = message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"].as_str();
        if let Some(version) = meta_version.or(self.protocol_version.as_deref()) {
            headers.push(("MCP-Protocol-Version", version.to_string()));
        }
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            headers.push(("Mcp-Method", method.to_string()));
            let key = match method {
                "tools/call" | "prompts/get" => "name",
                "resources/read" | "resources/subscribe" | "resources/unsubscribe" => "uri",
                _ => "",
            };
            if let Some(name) = message["params"][key].as_str() {
                headers.push(("Mcp-Name", header_value(name)));
            }
        }
        headers
    }

    fn post(&self, body: &str, headers: &[(&str, String)]) -> Result<Vec<Value>, String> {
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        let mut response = request.send(body).map_err(|e| format!("cannot reach {}: {e}", self.url))?;
        let status = response.status().as_u16();
        let sse = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/event-stream"));
        let text = response.body_mut().read_to_string().map_err(|e| format!("{}: bad response: {e}", self.url))?;
        match status {
            202 => Ok(Vec::new()),
            200 if sse => Ok(sse_messages(&text)),
            200 => serde_json::from_str(&text).map(|v| vec![v]).map_err(|e| format!("{}: not JSON: {e}", self.url)),
            401 => Err(format!("{} wants a token: pass --token or set HOTPATH_AUTH_TOKEN", self.url)),
            404 => Err(format!("{} has no MCP endpoint: build the program with the hotpath-mcp feature", self.url)),
            // rmcp answers a bad message with a JSON-RPC error body and a 4xx status: pass it on.
            _ => match serde_json::from_str::<Value>(&text) {
                Ok(v) if v.get("jsonrpc").is_some() => Ok(vec![v]),
                _ => Err(format!("{}: HTTP {status}: {}", self.url, text.trim())),
            },
        }
    }
}

/// The JSON messages in the `data:` fields of an SSE stream (events without data are keep-alives).
fn sse_messages(text: &str) -> Vec<Value> {
    let mut messages = Vec::new();
    for event in text.split("\n\n") {
        let data: Vec<&str> =
            event.lines().filter_map(|l| l.strip_prefix("data:")).map(|d| d.strip_prefix(' ').unwrap_or(d)).collect();
        if let Ok(value) = serde_json::from_str::<Value>(&data.join("\n")) {
            messages.push(value);
        }
    }
    messages
}

/// A header value as SEP-2243 writes it: as is when it is plain printable ASCII
/// without edge blanks, else Base64 between `=?base64?` and `?=`.
fn header_value(value: &str) -> String {
    let wrapped = value.starts_with("=?base64?") && value.ends_with("?=");
    let edge_blank = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    let plain = value.bytes().all(|b| (0x20..=0x7e).contains(&b)) && !edge_blank && !wrapped;
    if plain {
        value.to_string()
    } else {
        format!("=?base64?{}?=", base64::engine::general_purpose::STANDARD.encode(value))
    }
}

fn error(id: &Value, code: i64, message: &str) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_events_become_messages() {
        let stream = "event: message\ndata: {\"id\":1}\n\n: keep-alive\n\ndata: {\"id\":\ndata: 2}\n\nid: 3\ndata:\n\n";
        assert_eq!(sse_messages(stream), vec![json!({"id": 1}), json!({"id": 2})]);
    }

    #[test]
    fn headers_follow_the_body() {
        let bridge = Bridge {
            agent: ureq::Agent::new_with_defaults(),
            url: String::new(),
            token: None,
            protocol_version: Some("2025-11-25".into()),
        };
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "hotspots",
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
        let expected = [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "hotspots")];
        assert_eq!(bridge.headers(&call), expected.map(|(n, v)| (n, v.to_string())));
        let read = json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "hotpath://ré"}});
        let expected = [
            ("MCP-Protocol-Version", "2025-11-25"),
            ("Mcp-Method", "resources/read"),
            ("Mcp-Name", "=?base64?aG90cGF0aDovL3LDqQ==?="),
        ];
        assert_eq!(bridge.headers(&read), expected.map(|(n, v)| (n, v.to_string())));
    }

    #[test]
    fn an_unreachable_program_is_an_error_for_requests_only() {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let config = ureq::Agent::config_builder().timeout_global(Some(Duration::from_secs(5))).build();
        let url = format!("http://127.0.0.1:{port}/mcp");
        let mut bridge = Bridge { agent: config.into(), url: url.clone(), token: None, protocol_version: None };
        let answers = bridge.forward(r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#);
        let answer: Value = serde_json::from_str(&answers[0]).unwrap();
        assert_eq!(answer["id"], 7);
        assert_eq!(answer["error"]["code"], UNREACHABLE);
        assert!(answer["error"]["message"].as_str().unwrap().contains(&url), "{answer}");
        assert!(bridge.forward(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_empty());
        let parse: Value = serde_json::from_str(&bridge.forward("{nope")[0]).unwrap();
        assert_eq!((parse["id"].clone(), parse["error"]["code"].as_i64()), (Value::Null, Some(-32700)));
    }
}
