//! Carries HTTP between the live server's worker threads and rmcp's tower service.

use std::io;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::runtime::Runtime;

use super::envelope;
use super::handler::Hotpath;
use crate::server::{mount, HttpRequest, Mount, MountConnection};

type Service = StreamableHttpService<Hotpath, LocalSessionManager>;

/// The `/mcp` handler: the rmcp service and its own runtime (one `hp-mcp`
/// worker), built by the first request so that a program no agent talks to
/// pays for no thread.
struct McpMount {
    runtime: OnceLock<io::Result<Runtime>>,
    service: Service,
}

/// Builds the service and mounts it at `/mcp`.
pub(super) fn mount_mcp(token: bool) {
    let mut config = StreamableHttpServerConfig::default();
    // Stateless and JSON: one POST in, one response out; nothing to resume.
    config.legacy_session_mode = false;
    config.json_response = true;
    if token {
        // Any Host: the server may sit behind a tunnel or another name, and the token
        // already stops a web page that rebinds a name to this address.
        config.allowed_hosts = Vec::new();
    }
    // Without a token the server is on loopback (a wider bind without one is refused),
    // and rmcp's default Host list (localhost, 127.0.0.1, ::1) stops DNS rebinding.
    let service = StreamableHttpService::new(|| Ok(Hotpath::new()), Arc::new(LocalSessionManager::default()), config);
    mount("/mcp", Arc::new(McpMount { runtime: OnceLock::new(), service }));
}

fn build_runtime() -> io::Result<Runtime> {
    // Its threads start with every signal blocked, like every `hp-*` thread.
    hotpath_engine::spawn::with_signals_blocked(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("hp-mcp")
            .on_thread_start(hotpath_engine::memory::profiler_thread)
            .enable_all()
            .build()
    })
}

impl Mount for McpMount {
    fn serve(&self, request: HttpRequest, connection: MountConnection) {
        hotpath_engine::memory::untracked(|| match self.runtime.get_or_init(build_runtime) {
            Ok(runtime) => {
                let _ = runtime.block_on(self.answer(request, connection));
            }
            Err(e) => {
                let body = format!("{{\"error\":\"MCP runtime not started: {e}\"}}");
                let _ = connection.respond(503, "application/json", body.as_bytes());
            }
        });
    }
}

impl McpMount {
    async fn answer(&self, request: HttpRequest, connection: MountConnection) -> io::Result<()> {
        // rmcp answers what it cannot read with plain text; a client wants a JSON-RPC error.
        if request.method == "POST" {
            if let Err(rejection) = envelope::check(&request) {
                return connection.respond(rejection.status, "application/json", rejection.body.as_bytes());
            }
        }
        let http_request = match to_http(request) {
            Ok(r) => r,
            Err(e) => return connection.respond(400, "application/json", e.as_bytes()),
        };
        let response = match tower_service::Service::call(&mut self.service.clone(), http_request).await {
            Ok(response) => response,
            Err(never) => match never {},
        };
        let (parts, mut body) = response.into_parts();
        let content_type =
            parts.headers.get(http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("application/json");
        let extra: Vec<(String, String)> = parts
            .headers
            .iter()
            .filter(|(n, _)| {
                !matches!(n.as_str(), "content-type" | "content-length" | "transfer-encoding" | "connection")
            })
            .filter_map(|(n, v)| Some((n.to_string(), v.to_str().ok()?.to_string())))
            .collect();
        let headers: Vec<(&str, &str)> = extra.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        let status = parts.status.as_u16();
        if !content_type.starts_with("text/event-stream") {
            // A whole JSON answer: sent with its length, as plain HTTP clients expect.
            let Ok(collected) = body.collect().await;
            return connection.respond_with(status, content_type, &headers, &collected.to_bytes());
        }
        let mut out = connection.stream(status, content_type, &headers)?;
        while let Some(frame) = body.frame().await {
            let Ok(frame) = frame;
            if let Some(data) = frame.data_ref() {
                out.send(data)?;
            }
        }
        out.finish()
    }
}

/// The parsed request as an `http::Request` for rmcp.
fn to_http(request: HttpRequest) -> Result<http::Request<Full<Bytes>>, String> {
    let uri =
        if request.query.is_empty() { request.path.clone() } else { format!("{}?{}", request.path, request.query) };
    let mut builder = http::Request::builder().method(request.method.as_str()).uri(uri);
    for (name, value) in &request.headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    builder.body(Full::new(Bytes::from(request.body))).map_err(|e| format!("{{\"error\":\"bad request: {e}\"}}"))
}
