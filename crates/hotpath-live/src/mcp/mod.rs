//! The MCP server for AI agents (`mcp` feature): Model Context Protocol over
//! Streamable HTTP at `/mcp` on the live server, built with the official Rust SDK
//! (`rmcp`).
//!
//! The live server knows nothing about MCP: `bridge` mounts a handler at `/mcp`
//! (after the server's token check) that hands each request to rmcp's
//! `StreamableHttpService`, driven by a one-worker Tokio runtime (`hp-mcp`) owned
//! here and built by the first request, and streams the response back on the same connection. The service runs
//! stateless (one POST, one answer), so there is no session to keep.
//!
//! - `envelope`: JSON-RPC errors for messages rmcp cannot read.
//! - `handler`: the `ServerHandler`: tool list, dispatch, the report resource.
//! - `tools`: tool names, typed parameters (JSON Schema from `schemars`), section queries.
//! - `hotspots`: the ranked summary across sections.
//! - `marks`: `mark` and `changes_since_mark`.
//! - `debug`: `debug_logs`, the trackers and their log records.
//! - `row_logs`: `row_logs`, the `log = true` values of functions, futures, channels, streams.
//! - `timeline`: `timeline`, the flight recorder's trace written to a file, and its longest slices.

mod bridge;
mod debug;
mod envelope;
mod handler;
mod hotspots;
mod marks;
mod row_logs;
mod timeline;
mod tools;

/// Mounts the MCP service at `/mcp` (before the live server starts, so it is
/// there from the first request; nothing runs until one arrives). `token`: the
/// server requires one, which then also guards against DNS rebinding.
pub(crate) fn start(token: bool) {
    bridge::mount_mcp(token);
}
