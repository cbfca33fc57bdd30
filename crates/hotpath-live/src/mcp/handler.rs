//! The MCP server handler: the tool list, tool calls, and the live report as a resource.

use std::borrow::Cow;
use std::sync::Arc;

use hotpath_model::{SectionDef, SECTIONS};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest, CustomResult, ErrorCode,
    Implementation, ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::schemars::JsonSchema;
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};

use super::debug::{self, DebugLogsArgs};
use super::row_logs::{self, RowLogsArgs};
use super::timeline::{self, TimelineArgs};
use super::tools::{self, ChangesArgs, FunctionArgs, HotspotsArgs, MarkArgs, NoArgs, SectionArgs};
use super::{hotspots, marks};
use crate::server::{live_snapshot, status, Snapshot};

/// URI of the resource holding the current JSON report.
const REPORT_URI: &str = "hotpath://report";

/// The handler rmcp creates for each request (it holds nothing of its own).
#[derive(Clone, Default)]
pub(crate) struct Hotpath;

impl Hotpath {
    pub(crate) fn new() -> Self {
        Self
    }
}

/// The other tools: (name, description).
const OTHER_TOOLS: [(&str, &str); 8] = [
    ("function_detail", "Everything measured about one function: timing, allocations, CPU samples, async polls."),
    ("hotspots", "A short ranked list of what costs most across all sections (time, allocations, CPU, waits, slow consumers, runtime flags)."),
    ("mark", "Remember the current numbers under a name, to ask changes_since_mark later (after a code or load change)."),
    ("changes_since_mark", "What changed since a mark: per section, rows whose numbers moved (deltas), new rows, and the average duration of calls made since."),
    ("profiler_status", "Process id, uptime, hotpath version, which sections have data and why the others do not."),
    debug::TOOL,
    row_logs::TOOL,
    timeline::TOOL,
];

fn schema_of<T: JsonSchema>() -> Arc<Map<String, Value>> {
    let schema = rmcp::schemars::schema_for!(T);
    match serde_json::to_value(schema) {
        Ok(Value::Object(map)) => Arc::new(map),
        _ => Arc::new(Map::new()),
    }
}

fn tool(name: &'static str, description: &'static str, schema: Arc<Map<String, Value>>) -> Tool {
    Tool::new(Cow::Borrowed(name), Cow::Borrowed(description), schema)
}

fn all_tools() -> Vec<Tool> {
    let section = schema_of::<SectionArgs>();
    // One tool per section of the model's table, named by its key.
    let mut tools: Vec<Tool> = SECTIONS.iter().map(|d| tool(d.key, d.about, Arc::clone(&section))).collect();
    for (name, description) in OTHER_TOOLS {
        let schema = match name {
            "function_detail" => schema_of::<FunctionArgs>(),
            "hotspots" => schema_of::<HotspotsArgs>(),
            "mark" => schema_of::<MarkArgs>(),
            "changes_since_mark" => schema_of::<ChangesArgs>(),
            "debug_logs" => schema_of::<DebugLogsArgs>(),
            "row_logs" => schema_of::<RowLogsArgs>(),
            "timeline" => schema_of::<TimelineArgs>(),
            _ => schema_of::<NoArgs>(),
        };
        tools.push(tool(name, description, schema));
    }
    tools
}

/// Parses a tool's arguments into its parameter type; a mismatch is invalid params.
fn args<T: DeserializeOwned + Default>(tool: &str, arguments: Option<Map<String, Value>>) -> Result<T, McpError> {
    match arguments {
        None => Ok(T::default()),
        Some(map) => serde_json::from_value(Value::Object(map))
            .map_err(|e| McpError::invalid_params(format!("{tool}: bad arguments: {e}"), None)),
    }
}

/// A successful result: a short text for the model and the full structured data.
fn answer(text: String, data: Value) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(data);
    result
}

fn snapshot() -> Result<Arc<Snapshot>, McpError> {
    live_snapshot().ok_or_else(|| McpError::internal_error("the profiling session has not started", None))
}

impl Hotpath {
    fn call(&self, name: &str, arguments: Option<Map<String, Value>>) -> Result<CallToolResult, McpError> {
        if let Some(def) = SECTIONS.iter().find(|d| d.key == name) {
            let params: SectionArgs = args(name, arguments)?;
            return section(def, &params);
        }
        match name {
            "function_detail" => {
                let FunctionArgs { name: wanted } = match arguments {
                    Some(map) => serde_json::from_value(Value::Object(map))
                        .map_err(|e| McpError::invalid_params(format!("function_detail: bad arguments: {e}"), None))?,
                    None => return Err(McpError::invalid_params("function_detail: `name` is required", None)),
                };
                function_detail(&wanted)
            }
            "hotspots" => {
                let params: HotspotsArgs = args(name, arguments)?;
                let limit = params.limit.unwrap_or(10);
                if !(1..=50).contains(&limit) {
                    return Err(McpError::invalid_params(
                        format!("hotspots: limit must be 1 to 50, got {limit}"),
                        None,
                    ));
                }
                let data = hotspots::hotspots(&snapshot()?.report, limit);
                Ok(answer(hotspots::summary(&data), data))
            }
            "mark" => {
                let params: MarkArgs = args(name, arguments)?;
                let mark = params.name.unwrap_or_else(|| "default".into());
                let kept = marks::mark(&mark, snapshot()?.report.clone());
                let data = json!({ "mark": mark, "marks": marks::names(), "kept": kept });
                Ok(answer(format!("Marked {mark:?}. Ask changes_since_mark later to see what moved."), data))
            }
            "changes_since_mark" => {
                let params: ChangesArgs = args(name, arguments)?;
                let mark = params.name.unwrap_or_else(|| "default".into());
                let limit = params.limit.unwrap_or(10);
                if !(1..=50).contains(&limit) {
                    return Err(McpError::invalid_params(
                        format!("changes_since_mark: limit must be 1 to 50, got {limit}"),
                        None,
                    ));
                }
                let Some(before) = marks::get(&mark) else {
                    let known = marks::names();
                    return Err(McpError::invalid_params(
                        format!("no mark named {mark:?} (marks: {known:?}); call mark first"),
                        None,
                    ));
                };
                let data = marks::changes(&before, &snapshot()?.report, limit);
                Ok(answer(changes_summary(&mark, &data), data))
            }
            "debug_logs" => {
                let params: DebugLogsArgs = args(name, arguments)?;
                let (text, data) = debug::call(&snapshot()?.report, params)
                    .map_err(|e| McpError::invalid_params(format!("debug_logs: {e}"), None))?;
                Ok(answer(text, data))
            }
            "row_logs" => {
                let params: RowLogsArgs = args(name, arguments)?;
                let (text, data) = row_logs::call(&snapshot()?.report, params)
                    .map_err(|e| McpError::invalid_params(format!("row_logs: {e}"), None))?;
                Ok(answer(text, data))
            }
            "timeline" => {
                let params: TimelineArgs = args(name, arguments)?;
                let (text, data) =
                    timeline::call(params).map_err(|e| McpError::invalid_params(format!("timeline: {e}"), None))?;
                Ok(answer(text, data))
            }
            "profiler_status" => {
                let _: NoArgs = args(name, arguments)?;
                let snapshot = snapshot()?;
                let (address, auth) =
                    crate::server::bound().unwrap_or(((std::net::Ipv4Addr::LOCALHOST, 0).into(), false));
                let data = status(&snapshot, address, auth);
                let sections = data["sections"].as_array().map_or(0, Vec::len);
                let text = format!(
                    "pid {}, {} sections with data, uptime {:.1} s",
                    data["pid"],
                    sections,
                    data["uptime_ns"].as_f64().unwrap_or(0.0) / 1e9
                );
                Ok(answer(text, data))
            }
            _ => Err(McpError::invalid_params(format!("unknown tool {name:?}; tools/list names them"), None)),
        }
    }
}

fn section(def: &SectionDef, params: &SectionArgs) -> Result<CallToolResult, McpError> {
    let snapshot = snapshot()?;
    let key = def.key;
    let Some(mut data) = snapshot.report.section_json(def.section) else {
        let text = format!("{key}: no data ({})", def.absent);
        return Ok(answer(text, json!({ "section": key, "available": false, "reason": def.absent })));
    };
    let (matched, kept) =
        tools::query(&mut data, params).map_err(|e| McpError::invalid_params(format!("{key}: {e}"), None))?;
    let rows = tools::summary(&snapshot.report, def.section, &data, &kept, params.sort_by.as_deref());
    let text = format!("{key}: {matched} matching rows\n{rows}");
    Ok(answer(text, tools::section_result(key, matched, data)))
}

fn function_detail(wanted: &str) -> Result<CallToolResult, McpError> {
    let snapshot = snapshot()?;
    let report = &snapshot.report;
    let names: Vec<&str> = report.functions_timing.iter().flat_map(|s| &s.rows).map(|r| r.name.as_str()).collect();
    let exact = names.iter().find(|n| **n == wanted);
    let candidates: Vec<&&str> = names.iter().filter(|n| n.contains(wanted)).collect();
    let name = match (exact, candidates.as_slice()) {
        (Some(n), _) => n.to_string(),
        (None, [one]) => one.to_string(),
        (None, []) => return Err(McpError::invalid_params(format!("no measured function matches {wanted:?}"), None)),
        (None, many) => {
            return Err(McpError::invalid_params(
                format!("{wanted:?} matches {} functions: {many:?}", many.len()),
                None,
            ))
        }
    };
    let mut data = Map::new();
    data.insert("name".into(), json!(name));
    let timing = report.functions_timing.iter().flat_map(|s| &s.rows).find(|r| r.name == name);
    let alloc = report.functions_alloc.iter().flat_map(|s| &s.rows).find(|r| r.name == name);
    let cpu = report.functions_cpu.iter().flat_map(|s| &s.rows).find(|r| r.name == name);
    let future = report.futures.iter().flat_map(|s| &s.rows).find(|r| r.name == name);
    if let Some(r) = timing {
        data.insert("functions_timing".into(), serde_json::to_value(r).unwrap_or(Value::Null));
    }
    if let Some(r) = alloc {
        data.insert("functions_alloc".into(), serde_json::to_value(r).unwrap_or(Value::Null));
    }
    if let Some(r) = cpu {
        data.insert("functions_cpu".into(), serde_json::to_value(r).unwrap_or(Value::Null));
    }
    if let Some(r) = future {
        data.insert("futures".into(), serde_json::to_value(r).unwrap_or(Value::Null));
    }
    let text = match timing {
        Some(t) => format!(
            "{name}: {} calls, avg {} ns, total {} ns, self {} ns{}",
            t.calls,
            t.avg_ns,
            t.total_ns,
            t.self_ns,
            alloc.map_or(String::new(), |a| format!(", {} bytes allocated per call", a.bytes_avg))
        ),
        None => format!("{name}: no completed call yet"),
    };
    Ok(answer(text, Value::Object(data)))
}

fn changes_summary(mark: &str, data: &Value) -> String {
    let sections = data["sections"].as_object().cloned().unwrap_or_default();
    if sections.is_empty() {
        return format!("Nothing changed since mark {mark:?}.");
    }
    let mut lines = vec![format!("Since mark {mark:?} ({:.2} s):", data["elapsed_ns"].as_f64().unwrap_or(0.0) / 1e9)];
    for (key, section) in &sections {
        let rows = section["rows"].as_array().cloned().unwrap_or_default();
        let names: Vec<String> = rows
            .iter()
            .take(5)
            .map(|r| match r.get("interval_avg_ns") {
                Some(avg) => format!(
                    "{} (avg {} ns since, {} before)",
                    r["name"].as_str().unwrap_or("?"),
                    avg,
                    r["avg_ns_before"]
                ),
                None => r["name"].as_str().unwrap_or("?").to_string(),
            })
            .collect();
        lines.push(format!("- {key}: {} rows changed: {}", section["changed_rows"], names.join(", ")));
    }
    lines.join("\n")
}

/// Methods of the protocol itself. rmcp reads a request for one of them whose
/// params do not fit its type as an unknown ("custom") method; it is bad params.
const PROTOCOL_METHODS: [&str; 13] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
];

/// The error for a request rmcp could not read as any method it knows.
fn custom_request_error(request: &CustomRequest) -> McpError {
    let method = request.method.as_str();
    if !PROTOCOL_METHODS.contains(&method) {
        return McpError::new(ErrorCode::METHOD_NOT_FOUND, format!("method {method:?} not found"), None);
    }
    let why = match method {
        "tools/call" => request.params_as::<CallToolRequestParams>().err().map(|e| e.to_string()),
        _ => None,
    };
    let why = why.unwrap_or_else(|| "they do not match the method's parameters".into());
    McpError::invalid_params(format!("invalid params for {method}: {why}"), None)
}

impl ServerHandler for Hotpath {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_tools().enable_resources().build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("hotpath", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Live profiling data of this program. Start with hotspots; drill down with the section tools \
                 (sort_by, limit, filter) and function_detail; use mark and changes_since_mark around a change; timeline writes a trace file of the last seconds.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(all_tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.as_ref();
        let known = SECTIONS.iter().any(|d| d.key == name) || OTHER_TOOLS.iter().any(|(n, _)| *n == name);
        if !known {
            return Err(McpError::invalid_params(format!("unknown tool {name:?}; tools/list names them"), None));
        }
        // Bad arguments and unknown names are tool errors, which the model sees and can correct
        // (MCP 2025-11-25); only an unknown tool is a protocol error.
        let result = hotpath_engine::memory::untracked(|| self.call(name, request.arguments));
        Ok(result.unwrap_or_else(|e| CallToolResult::error(vec![ContentBlock::text(e.message)])).into())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, McpError> {
        Err(custom_request_error(&request))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let resource = Resource::new(REPORT_URI, "report")
            .with_description("The current hotpath report (JSON, every section, no row limit).")
            .with_mime_type("application/json");
        Ok(ListResourcesResult::with_all_items(vec![resource]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        if request.uri != REPORT_URI {
            return Err(McpError::resource_not_found(format!("unknown resource {:?}", request.uri), None));
        }
        let report = snapshot()?.report.to_json(false);
        let contents = ResourceContents::text(report, REPORT_URI).with_mime_type("application/json");
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}
