//! What each path serves. The section table is the one place that maps a path to
//! a part of the report: adding an instrument's endpoint is one line there.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::http::{HttpRequest, Response};
use super::mount::{self, Mount};
use super::snapshot::Snapshot;
use super::{auth, prometheus, query::Query, State};

/// `/<key>` serves `report.<key>`; the text says why the section can be absent.
pub(crate) const SECTIONS: &[(&str, &str)] = &[
    ("functions_timing", "no measured function has completed a call yet"),
    ("functions_alloc", "allocation profiling is off (hotpath-alloc feature) or nothing was allocated yet"),
    ("functions_cpu", "CPU sampling is off (hotpath-cpu feature) or no sample was taken yet"),
    ("threads", "the threads sampler is off (threads feature) or has not sampled yet"),
    ("io", "no io! wrapper was used yet"),
    ("channels", "no channel! wrapper was used yet"),
    ("streams", "no stream! wrapper was used yet"),
    ("futures", "no future! wrapper was used yet"),
    ("mutexes", "no mutex! wrapper was used yet"),
    ("rw_locks", "no rw_lock! wrapper was used yet"),
    ("tokio_runtime", "no Tokio runtime is monitored (hotpath::tokio_runtime!(&handle) with the tokio feature)"),
];

/// Fixed endpoints besides the sections.
const ENDPOINTS: [&str; 4] = ["/", "/profiler_status", "/metrics", "/report"];

/// What to do with a request.
pub(crate) enum Outcome {
    Respond(Response),
    Mount(Arc<dyn Mount>),
}

/// Token and Host checks (for every path), mounted handlers, then the built-in endpoints.
pub(crate) fn route(request: &HttpRequest, state: &State) -> Outcome {
    if let Some(refused) = auth::gate(request, state.token.as_deref(), state.refuse_all) {
        return Outcome::Respond(refused);
    }
    if let Some(handler) = mount::find(&request.path) {
        return Outcome::Mount(handler);
    }
    Outcome::Respond(builtin(request, state))
}

fn builtin(request: &HttpRequest, state: &State) -> Response {
    if request.method != "GET" && request.method != "HEAD" {
        let message = format!("method {} not allowed; use GET", request.method);
        return Response::error(405, &message).with_header("Allow", "GET, HEAD");
    }
    let path = request.path.as_str();
    if path == "/" {
        return index();
    }
    let known = ENDPOINTS.contains(&path) || section(path).is_some();
    if !known {
        return Response::error(404, &format!("unknown path {path:?}; GET / lists the endpoints"));
    }
    let query = match Query::parse(&request.query) {
        Ok(q) => q,
        Err(problem) => return Response::error(400, &problem),
    };
    let Some(snapshot) = (state.source)() else {
        return Response::error(503, "the profiling session has not started");
    };
    match path {
        "/profiler_status" => Response::json(200, status(&snapshot, state.address, state.token.is_some()).to_string()),
        "/metrics" => {
            let text = prometheus::render(&snapshot, &state.stats);
            Response {
                status: 200,
                content_type: prometheus::CONTENT_TYPE,
                headers: Vec::new(),
                body: text.into_bytes(),
            }
        }
        "/report" => Response::json(200, report(&snapshot, &query).to_string()),
        _ => serve_section(&snapshot, &query, path),
    }
}

fn section(path: &str) -> Option<&'static (&'static str, &'static str)> {
    let key = path.strip_prefix('/')?;
    SECTIONS.iter().find(|(k, _)| *k == key)
}

fn serve_section(snapshot: &Snapshot, query: &Query, path: &str) -> Response {
    let Some((key, reason)) = section(path) else { return Response::error(404, "unknown section") };
    match snapshot.report.get(*key) {
        Some(value) => Response::json(200, query.cut(value.clone(), default_limit(snapshot)).to_string()),
        None => Response::error(404, &format!("section {key} not available: {reason}")),
    }
}

/// The configured row limit, used when the request has no `limit`.
fn default_limit(snapshot: &Snapshot) -> usize {
    snapshot.meta().get("limit").and_then(Value::as_u64).unwrap_or(0) as usize
}

fn report(snapshot: &Snapshot, query: &Query) -> Value {
    let limit = query.limit.unwrap_or_else(|| default_limit(snapshot));
    let mut out = Map::new();
    for (key, value) in &snapshot.report {
        let value = match key.as_str() {
            "schema_version" => value.clone(),
            "meta" => {
                let mut meta = value.clone();
                meta["limit"] = json!(limit);
                meta
            }
            _ => query.cut(value.clone(), limit),
        };
        out.insert(key.clone(), value);
    }
    Value::Object(out)
}

fn index() -> Response {
    let sections = SECTIONS.iter().map(|(k, _)| format!("/{k}"));
    let endpoints: Vec<String> = ENDPOINTS.iter().map(|e| e.to_string()).chain(sections).collect();
    Response::json(
        200,
        json!({ "endpoints": endpoints, "query": ["limit=N (0 = all)", "focus=text or /regex/"] }).to_string(),
    )
}

/// `/profiler_status` (also the MCP `profiler_status` tool).
pub(crate) fn status(snapshot: &Snapshot, address: std::net::SocketAddr, auth: bool) -> Value {
    let meta = snapshot.meta();
    let (available, missing): (Vec<_>, Vec<_>) = SECTIONS.iter().partition(|(k, _)| snapshot.report.contains_key(*k));
    let unavailable: Map<String, Value> = missing.iter().map(|(k, why)| (k.to_string(), json!(why))).collect();
    json!({
        "hotpath_version": meta.get("hotpath_version"),
        "caller": meta.get("caller"),
        "pid": meta.get("pid"),
        "started_unix_ms": meta.get("started_unix_ms"),
        "uptime_ns": snapshot.uptime.as_nanos() as u64,
        "recording": snapshot.recording,
        "address": address.to_string(),
        "auth": auth,
        "sections": available.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
        "unavailable": unavailable,
        "dropped": meta.get("dropped"),
        "warnings": meta.get("warnings"),
    })
}
