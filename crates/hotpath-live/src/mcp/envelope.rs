//! Checks a POSTed MCP message before rmcp reads it. rmcp answers a body it cannot
//! read as its message type (a batch, `null`, `"jsonrpc": "1.0"`, `params` that is
//! not an object) with a plain-text HTTP 415, and serves an unknown
//! `MCP-Protocol-Version` header in some cases; a client needs JSON-RPC errors it can
//! read and match to its request.

use rmcp::model::ProtocolVersion;
use serde_json::{json, Value};

use crate::server::HttpRequest;

/// JSON-RPC 2.0 error codes.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;
/// Where a message carries its own protocol version (rmcp negotiates those itself).
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// An answer instead of rmcp's: HTTP status and a JSON-RPC error body.
pub(super) struct Rejection {
    pub(super) status: u16,
    pub(super) body: String,
}

fn reject(id: &Value, code: i64, message: String, data: Option<Value>) -> Rejection {
    let mut error = json!({ "code": code, "message": message });
    if let Some(data) = data {
        error["data"] = data;
    }
    Rejection { status: 400, body: json!({ "jsonrpc": "2.0", "id": id, "error": error }).to_string() }
}

/// Whether rmcp may have the POST `request`.
pub(super) fn check(request: &HttpRequest) -> Result<(), Rejection> {
    let message: Value = serde_json::from_slice(&request.body)
        .map_err(|e| reject(&Value::Null, PARSE_ERROR, format!("parse error: {e}"), None))?;
    let Value::Object(fields) = &message else {
        let what = if message.is_array() { "a batch (JSON-RPC batches are not supported)" } else { "not an object" };
        return Err(reject(&Value::Null, INVALID_REQUEST, format!("invalid request: the message is {what}"), None));
    };
    // An id that is not a string or a number cannot be answered with itself.
    let id = match fields.get("id") {
        None => Value::Null,
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        Some(other) => {
            let message = format!("invalid request: id {other} is not a string or a number");
            return Err(reject(&Value::Null, INVALID_REQUEST, message, None));
        }
    };
    if fields.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        let message = "invalid request: \"jsonrpc\" must be \"2.0\"".to_string();
        return Err(reject(&id, INVALID_REQUEST, message, None));
    }
    let is_response = fields.contains_key("result") || fields.contains_key("error");
    if !is_response && !fields.get("method").is_some_and(Value::is_string) {
        return Err(reject(&id, INVALID_REQUEST, "invalid request: \"method\" must be a string".into(), None));
    }
    let params = fields.get("params");
    if params.is_some_and(|p| !p.is_object()) {
        let message = "invalid params: \"params\" must be an object".to_string();
        return Err(reject(&id, INVALID_PARAMS, message, None));
    }
    let own_version = params.and_then(|p| p.get("_meta")).is_some_and(|m| m.get(META_VERSION).is_some());
    if let Some(version) = request.header("mcp-protocol-version").filter(|_| !own_version) {
        let supported: Vec<&str> = ProtocolVersion::KNOWN_VERSIONS.iter().map(ProtocolVersion::as_str).collect();
        if !supported.contains(&version) {
            let message =
                format!("unsupported MCP-Protocol-Version {version:?}; supported versions: {}", supported.join(", "));
            return Err(reject(&id, INVALID_REQUEST, message, Some(json!({ "supported": supported }))));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(body: &str, version: Option<&str>) -> Option<(i64, Value)> {
        let mut request = HttpRequest { method: "POST".into(), body: body.as_bytes().to_vec(), ..Default::default() };
        if let Some(v) = version {
            request.headers.push(("MCP-Protocol-Version".into(), v.into()));
        }
        let rejection = check(&request).err()?;
        assert_eq!(rejection.status, 400);
        let reply: Value = serde_json::from_str(&rejection.body).unwrap();
        assert_eq!(reply["jsonrpc"], "2.0");
        Some((reply["error"]["code"].as_i64().unwrap(), reply["id"].clone()))
    }

    #[test]
    fn messages_rmcp_cannot_read_get_json_rpc_errors() {
        assert_eq!(code("{no", None), Some((PARSE_ERROR, Value::Null)));
        assert_eq!(code("[]", None), Some((INVALID_REQUEST, Value::Null)));
        assert_eq!(code("null", None), Some((INVALID_REQUEST, Value::Null)));
        assert_eq!(code(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, None), Some((INVALID_REQUEST, json!(1))));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, None), Some((INVALID_REQUEST, Value::Null)));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":"a","method":7}"#, None), Some((INVALID_REQUEST, json!("a"))));
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":2,"method":"x","params":"s"}"#, None),
            Some((INVALID_PARAMS, json!(2)))
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#, Some("1999-01-01")),
            Some((INVALID_REQUEST, json!(3)))
        );
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#, Some("2025-11-25")), None);
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":4,"result":{}}"#, None), None);
    }
}
