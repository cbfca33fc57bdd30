//! The `debug_logs` tool: lists the `dbg!`, `val!` and `gauge!` trackers, or returns
//! one tracker's last log records, optionally filtered by text.

use hotpath_engine::options::Focus;
use hotpath_model::{DebugRow, Report, TrackerKind};
use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::server::keep_debug_logs;

/// The tool's name and description, for the tool list.
pub(crate) const TOOL: (&str, &str) = (
    "debug_logs",
    "The dbg!, val! and gauge! trackers: without `tracker`, a list of them with counts and last values; \
     with `tracker` (a key or expression), its last log records (value, time, thread, source), newest first, \
     optionally only those whose value contains `filter`.",
);

/// Records returned when `limit` is not given, and at most.
const DEFAULT_LOGS: usize = 20;
const MAX_LOGS: usize = 200;

/// Parameters of `debug_logs`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DebugLogsArgs {
    /// The tracker: a `val!`/`gauge!` key or a `dbg!` expression, exactly or a part of
    /// it that matches one tracker. Without it, the trackers are listed.
    pub(crate) tracker: Option<String>,
    /// `dbg`, `val` or `gauge`, to pick among trackers of the same name.
    pub(crate) kind: Option<String>,
    /// Keep records whose value (or key) contains this text, or matches `/regex/`.
    pub(crate) filter: Option<String>,
    /// Records to return, newest first, 1 to 200 (default 20).
    pub(crate) limit: Option<usize>,
}

/// Runs the tool on the trackers of `report`: a short text and the structured data.
pub(crate) fn call(report: &Report, args: DebugLogsArgs) -> Result<(String, Value), String> {
    let limit = args.limit.unwrap_or(DEFAULT_LOGS);
    if !(1..=MAX_LOGS).contains(&limit) {
        return Err(format!("limit must be between 1 and {MAX_LOGS}, got {limit}"));
    }
    let kind = args.kind.as_deref().map(str::parse::<TrackerKind>).transpose()?;
    let filter = args.filter.as_deref().map(|f| f.parse::<Focus>().map_err(|p| format!("filter {f:?} {p}")));
    let filter = filter.transpose()?;
    let rows: Vec<&DebugRow> =
        report.debug.iter().flat_map(|s| &s.rows).filter(|r| kind.is_none_or(|k| r.kind() == k)).collect();
    let Some(wanted) = args.tracker else {
        let list: Vec<Value> = rows
            .iter()
            .map(|r| json!({ "kind": r.kind(), "id": r.id(), "name": r.name(), "count": r.count() }))
            .collect();
        let text = rows
            .iter()
            .take(20)
            .map(|r| format!("- {} {} ({} updates)", r.kind().macro_name(), r.name(), r.count()))
            .collect::<Vec<_>>();
        let text = format!("{} trackers\n{}", rows.len(), text.join("\n"));
        return Ok((text, json!({ "trackers": list })));
    };
    let exact: Vec<&&DebugRow> = rows.iter().filter(|r| r.name() == wanted).collect();
    let partial: Vec<&&DebugRow> = rows.iter().filter(|r| r.name().contains(wanted.as_str())).collect();
    let row = match (exact.as_slice(), partial.as_slice()) {
        ([one], _) | ([], [one]) => **one,
        ([], []) => {
            return Err(format!("no tracker matches {wanted:?}; call debug_logs without `tracker` to list them"))
        }
        (_, many) => {
            let names: Vec<String> = many.iter().map(|r| format!("{} {}", r.kind().as_str(), r.name())).collect();
            return Err(format!(
                "{wanted:?} matches {} trackers: {names:?}; give `kind` or the exact name",
                many.len()
            ));
        }
    };
    let mut logs = hotpath_engine::debug::logs(row.kind(), row.id())
        .ok_or_else(|| format!("tracker {} {} is gone", row.kind().as_str(), row.id()))?;
    if let Some(filter) = &filter {
        keep_debug_logs(&mut logs, |t| filter.matches(t));
    }
    let matched = logs.logs.len();
    logs.logs.truncate(limit);
    let lines: Vec<String> = logs
        .logs
        .iter()
        .take(10)
        .map(|l| match (&l.value, l.current) {
            (Some(v), _) => format!("- #{} {v}", l.seq),
            (None, Some(c)) => {
                format!("- #{} {} {} -> {c}", l.seq, l.op.as_deref().unwrap_or("?"), l.operand.unwrap_or(0.0))
            }
            _ => format!("- #{}", l.seq),
        })
        .collect();
    let text = format!(
        "{} {}: {} records ever, {matched} kept and matching, newest first\n{}",
        row.kind().macro_name(),
        logs.name,
        logs.total,
        lines.join("\n")
    );
    let mut data = serde_json::to_value(&logs).map_err(|e| e.to_string())?;
    data["matched"] = json!(matched);
    Ok((text, data))
}
