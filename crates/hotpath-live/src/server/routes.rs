//! What each path serves. Section endpoints come from the model's section table
//! (`hotpath_model::SECTIONS`): a section added there is served here with no change.

use std::sync::Arc;

use hotpath_model::{Report, Section, SectionDef, SECTIONS};
use serde_json::{json, Map, Value};

use super::http::{HttpRequest, Response};
use super::mount::{self, Mount};
use super::pending::PENDING;
use super::snapshot::Snapshot;
use super::state::State;
use super::{auth, debug_logs, prometheus, query::Query, timeline};

/// Fixed endpoints besides the sections.
const ENDPOINTS: [&str; 4] = ["/", "/profiler_status", "/metrics", "/report"];

/// What to do with a request.
pub(crate) enum Outcome {
    Respond(Response),
    Mount(Arc<dyn Mount>),
}

/// Token (the one of the path's surface) and Host checks, for every path;, mounted handlers, then the built-in endpoints.
pub(crate) fn route(request: &HttpRequest, state: &State) -> Outcome {
    if let Some(refused) = auth::gate(request, state.tokens.of(&request.path), state.tokens.refuse_all) {
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
    if path == timeline::PATH {
        // Copied from the rings now: not a section, and not kept by the render cache.
        return timeline::serve(&request.query);
    }
    if path.starts_with("/debug/") && PENDING.full() {
        return Response::busy("the server holds as many unsent responses as it may (slow clients)");
    }
    if let Some(response) = debug_logs::serve(path, &request.query) {
        return response;
    }
    if let Some(response) = debug_logs::serve_row(path, &request.query) {
        return response;
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
    // `/metrics` in the format the scraper's Accept header asks for (text otherwise).
    let format = prometheus::negotiate(request.header("accept"));
    // Rendered once per snapshot, path, query (and format), and shared by every client asking.
    let key = match path {
        "/metrics" => format!("{path}?{}#{}", request.query, format.key()),
        _ => format!("{path}?{}", request.query),
    };
    state.rendered.serve(&snapshot, &key, || match path {
        "/profiler_status" => Response::json(200, status(&snapshot, state.address, state.tokens.guarded()).to_string()),
        "/metrics" => Response::new(
            200,
            format.content_type(),
            prometheus::render(&snapshot, &state.stats, &state.exposition, format),
        ),
        "/report" => Response::json(200, cut(&snapshot, &query).to_json(false)),
        _ => serve_section(&snapshot, &query, path),
    })
}

fn section(path: &str) -> Option<&'static SectionDef> {
    let key = path.strip_prefix('/')?;
    SECTIONS.iter().find(|d| d.key == key)
}

/// The snapshot's report cut by the query (or the configured limit).
fn cut(snapshot: &Snapshot, query: &Query) -> Report {
    let mut report = snapshot.report.clone();
    let limit = query.limit.unwrap_or(report.meta.limit);
    query.cut(&mut report, limit);
    report.meta.limit = limit;
    report
}

fn serve_section(snapshot: &Snapshot, query: &Query, path: &str) -> Response {
    let Some(def) = section(path) else { return Response::error(404, "unknown section") };
    match cut(snapshot, query).section_json(def.section) {
        Some(value) => Response::json(200, value.to_string()),
        None => Response::error(404, &format!("section {} not available: {}", def.key, def.absent)),
    }
}

fn index() -> Response {
    let sections = SECTIONS.iter().map(|d| format!("/{}", d.key));
    let endpoints: Vec<String> = ENDPOINTS
        .iter()
        .map(|e| e.to_string())
        .chain(sections)
        .chain([debug_logs::PATTERN, debug_logs::ROW_PATTERN, timeline::PATH].map(String::from))
        .collect();
    let query = ["limit=N (0 = all)", "focus=text or /regex/"];
    let timeline = format!("{}?{}", timeline::PATH, timeline::QUERY);
    Response::json(200, json!({ "endpoints": endpoints, "query": query, "timeline": timeline }).to_string())
}

/// `/profiler_status` (also the MCP `profiler_status` tool).
pub(crate) fn status(snapshot: &Snapshot, address: std::net::SocketAddr, auth: bool) -> Value {
    let meta = &snapshot.report.meta;
    let present = |s: Section| snapshot.report.section(s).is_some();
    let (available, missing): (Vec<&SectionDef>, Vec<&SectionDef>) = SECTIONS.iter().partition(|d| present(d.section));
    let unavailable: Map<String, Value> = missing.iter().map(|d| (d.key.to_string(), json!(d.absent))).collect();
    json!({
        "hotpath_version": meta.hotpath_version,
        "caller": meta.caller,
        "pid": meta.pid,
        "started_unix_ms": meta.started_unix_ms,
        "uptime_ns": snapshot.uptime.as_nanos() as u64,
        "recording": snapshot.recording,
        "address": address.to_string(),
        "auth": auth,
        "sections": available.iter().map(|d| d.key).collect::<Vec<_>>(),
        "unavailable": unavailable,
        "dropped": meta.dropped,
        "overhead": meta.overhead,
        "warnings": meta.warnings,
        "timeline": timeline_status(),
        "otlp": crate::otlp_stats::status(),
    })
}

/// The flight recorder's state, read from the engine now (`meta.timeline` has the
/// same figures, but only while the recorder is on).
fn timeline_status() -> Value {
    let usage = hotpath_engine::timeline::usage();
    let files = hotpath_engine::timeline::files();
    json!({
        "on": usage.on,
        "rings": usage.rings,
        "bytes": usage.bytes,
        "events_written": usage.written,
        "capacity": usage.capacity,
        "events_per_thread": usage.per_thread,
        "files": files.listed,
        "files_unlisted": files.unlisted,
        "suppressed": files.suppressed,
    })
}
