//! The `row_logs` tool: the rows of other sections that keep `log = true` values
//! (functions, futures, channels, streams), or one row's last values, optionally
//! filtered by text. The records come from the engine's log store, as at
//! `GET /{section}/{name}/logs`; SQL, HTTP and server rows log every execution or
//! request (record shapes in docs/JSON_SCHEMA.md).

use hotpath_engine::options::Focus;
use hotpath_model::{LoggedRow, Report};
use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::server::{keep_row_logs, LOGGED_SECTIONS};

/// The tool's name and description, for the tool list.
pub(crate) const TOOL: (&str, &str) = (
    "row_logs",
    "Values kept by log = true on functions, futures, channels and streams, and the last executions or requests \
     of SQL, HTTP client and server rows: without `row`, the logged rows with counts and last values; with \
     `row` (a row name or a part of it), its last values (Debug text or `key=value` record, time, thread), \
     newest first, optionally only those containing `filter`.",
);

/// Records returned when `limit` is not given, and at most.
const DEFAULT_LOGS: usize = 20;
const MAX_LOGS: usize = 200;

/// Parameters of `row_logs`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RowLogsArgs {
    /// The row: its name as its section shows it (e.g. `app::parse`), exactly or a part
    /// of it that matches one logged row. Without it, the logged rows are listed.
    pub(crate) row: Option<String>,
    /// `functions_timing`, `futures`, `channels`, `streams`, `sql`, `http` or `server`, to pick among rows of
    /// the same name.
    pub(crate) section: Option<String>,
    /// Keep values that contain this text, or match `/regex/`.
    pub(crate) filter: Option<String>,
    /// Records to return, newest first, 1 to 200 (default 20).
    pub(crate) limit: Option<usize>,
}

/// Runs the tool on the logged rows of `report`: a short text and the structured data.
pub(crate) fn call(report: &Report, args: RowLogsArgs) -> Result<(String, Value), String> {
    let limit = args.limit.unwrap_or(DEFAULT_LOGS);
    if !(1..=MAX_LOGS).contains(&limit) {
        return Err(format!("limit must be between 1 and {MAX_LOGS}, got {limit}"));
    }
    if let Some(section) = args.section.as_deref().filter(|s| !LOGGED_SECTIONS.contains(s)) {
        return Err(format!("section {section:?} keeps no logs; expected one of {LOGGED_SECTIONS:?}"));
    }
    let filter = args.filter.as_deref().map(|f| f.parse::<Focus>().map_err(|p| format!("filter {f:?} {p}")));
    let filter = filter.transpose()?;
    let rows: Vec<&LoggedRow> = report
        .debug
        .iter()
        .flat_map(|s| &s.logged)
        .filter(|r| args.section.as_deref().is_none_or(|s| r.section == s))
        .collect();
    let Some(wanted) = args.row else {
        let list: Vec<Value> = rows
            .iter()
            .map(|r| json!({ "section": r.section, "name": r.name, "total": r.total, "value": r.value }))
            .collect();
        let lines: Vec<String> = rows
            .iter()
            .take(20)
            .map(|r| format!("- {} {} ({} values): {}", r.section, r.name, r.total, r.value))
            .collect();
        return Ok((format!("{} logged rows\n{}", rows.len(), lines.join("\n")), json!({ "rows": list })));
    };
    let exact: Vec<&&LoggedRow> = rows.iter().filter(|r| r.name == wanted).collect();
    let partial: Vec<&&LoggedRow> = rows.iter().filter(|r| r.name.contains(wanted.as_str())).collect();
    let row = match (exact.as_slice(), partial.as_slice()) {
        ([one], _) | ([], [one]) => **one,
        ([], []) => return Err(format!("no logged row matches {wanted:?}; call row_logs without `row` to list them")),
        (_, many) => {
            let names: Vec<String> = many.iter().map(|r| format!("{} {}", r.section, r.name)).collect();
            return Err(format!("{wanted:?} matches {} rows: {names:?}; give `section` or the exact name", many.len()));
        }
    };
    let mut logs = hotpath_engine::row_logs(&row.section, &row.name)
        .ok_or_else(|| format!("the logs of {} {} are gone", row.section, row.name))?;
    if let Some(filter) = &filter {
        keep_row_logs(&mut logs, |t| filter.matches(t));
    }
    let matched = logs.logs.len();
    logs.logs.truncate(limit);
    let lines: Vec<String> =
        logs.logs.iter().take(10).map(|l| format!("- {}", l.value.as_deref().unwrap_or(""))).collect();
    let text = format!(
        "{} {}: {} values ever, {matched} kept and matching, newest first\n{}",
        logs.section,
        logs.name,
        logs.total,
        lines.join("\n")
    );
    let mut data = serde_json::to_value(&logs).map_err(|e| e.to_string())?;
    data["matched"] = json!(matched);
    Ok((text, data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hotpath_model::DebugTrackers;

    fn report() -> Report {
        let row = |section: &str, name: &str| {
            let mut r = LoggedRow::default();
            (r.section, r.name, r.total) = (section.into(), name.into(), 3);
            r
        };
        let mut debug = DebugTrackers::default();
        debug.logged = vec![row("functions_timing", "app::parse"), row("futures", "app::parse"), row("streams", "s")];
        let mut report = Report::default();
        report.debug = Some(debug);
        report
    }

    #[test]
    fn lists_and_refuses_what_it_cannot_answer() {
        let (text, data) = call(&report(), RowLogsArgs::default()).unwrap();
        assert!(text.starts_with("3 logged rows"), "{text}");
        assert_eq!(data["rows"].as_array().unwrap().len(), 3);
        let only = RowLogsArgs { section: Some("streams".into()), ..RowLogsArgs::default() };
        assert_eq!(call(&report(), only).unwrap().1["rows"].as_array().unwrap().len(), 1);
        let twice = call(&report(), RowLogsArgs { row: Some("parse".into()), ..RowLogsArgs::default() });
        assert!(twice.unwrap_err().contains("matches 2 rows"));
        let none = call(&report(), RowLogsArgs { row: Some("zz".into()), ..RowLogsArgs::default() });
        assert!(none.unwrap_err().contains("zz"));
        let bad = call(&report(), RowLogsArgs { section: Some("threads".into()), ..RowLogsArgs::default() });
        assert!(bad.unwrap_err().contains("keeps no logs"));
        assert!(call(&report(), RowLogsArgs { limit: Some(0), ..RowLogsArgs::default() }).is_err());
    }
}
