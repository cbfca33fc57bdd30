//! The tools: names, typed parameters (their JSON Schema comes from the types), and
//! the generic query every section tool runs (filter, sort, limit).

use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;
use serde_json::{json, Value};

use hotpath_engine::options::Focus;
use hotpath_model::{Report, Section};

/// Rows a section tool returns when `limit` is not given, and at most.
const DEFAULT_ROWS: usize = 20;
const MAX_ROWS: usize = 200;

/// Parameters of every section tool.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SectionArgs {
    /// Numeric field of a row to sort by, largest first: for example `total_ns`,
    /// `self_ns`, `calls`, `bytes_total`, `self_samples`, `read.bytes`. Nested fields
    /// use dots. Default: the section's own order (largest cost first).
    pub(crate) sort_by: Option<String>,
    /// Rows to return, 1 to 200 (default 20).
    pub(crate) limit: Option<usize>,
    /// Keep rows whose name contains this text, or matches `/regex/`.
    pub(crate) filter: Option<String>,
}

/// Parameters of `function_detail`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FunctionArgs {
    /// The function's name as reports show it (e.g. `app::parse`), or a part of it
    /// that matches exactly one function.
    pub(crate) name: String,
}

/// Parameters of `hotspots`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HotspotsArgs {
    /// Items to return, 1 to 50 (default 10).
    pub(crate) limit: Option<usize>,
}

/// Parameters of `mark`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MarkArgs {
    /// Name of the mark (default `default`); marking again replaces it.
    pub(crate) name: Option<String>,
}

/// Parameters of `changes_since_mark`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChangesArgs {
    /// Name of the mark to compare with (default `default`).
    pub(crate) name: Option<String>,
    /// Changed rows to return per section, 1 to 50 (default 10).
    pub(crate) limit: Option<usize>,
}

/// Parameters of tools that take none.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoArgs {}

/// The array of rows of a section (`rows`, or `runtimes` for Tokio).
pub(crate) fn rows_mut(section: &mut Value) -> Option<&mut Vec<Value>> {
    let object = section.as_object_mut()?;
    let key = ["rows", "runtimes"].into_iter().find(|k| object.get(*k).is_some_and(Value::is_array))?;
    object.get_mut(key)?.as_array_mut()
}

/// A number at a dotted path of a row, if there is one.
pub(crate) fn number_at(row: &Value, path: &str) -> Option<f64> {
    path.split('.').try_fold(row, |v, key| v.get(key))?.as_f64()
}

/// Applies `filter`, `sort_by` and `limit` to a section's rows, in place. Returns
/// how many rows matched before the limit, and the kept rows' indices in the section
/// as it was (to find them in the typed report).
pub(crate) fn query(section: &mut Value, args: &SectionArgs) -> Result<(usize, Vec<usize>), String> {
    let focus = match &args.filter {
        Some(f) => Some(f.parse::<Focus>().map_err(|p| format!("filter {f:?} {p}"))?),
        None => None,
    };
    let limit = args.limit.unwrap_or(DEFAULT_ROWS);
    if !(1..=MAX_ROWS).contains(&limit) {
        return Err(format!("limit must be between 1 and {MAX_ROWS}, got {limit}"));
    }
    let Some(rows) = rows_mut(section) else { return Ok((0, Vec::new())) };
    let mut indexed: Vec<(usize, Value)> = rows.drain(..).enumerate().collect();
    if let Some(focus) = &focus {
        indexed.retain(|(_, r)| r.get("name").and_then(Value::as_str).is_some_and(|n| focus.matches(n)));
    }
    if let Some(field) = &args.sort_by {
        if !indexed.is_empty() && !indexed.iter().any(|(_, r)| number_at(r, field).is_some()) {
            return Err(format!("sort_by {field:?}: no row has a numeric field by that name"));
        }
        indexed.sort_by(|(_, a), (_, b)| {
            let (a, b) = (number_at(a, field).unwrap_or(f64::MIN), number_at(b, field).unwrap_or(f64::MIN));
            b.total_cmp(&a)
        });
    }
    let matched = indexed.len();
    indexed.truncate(limit);
    let kept = indexed.iter().map(|(i, _)| *i).collect();
    rows.extend(indexed.into_iter().map(|(_, r)| r));
    Ok((matched, kept))
}

/// The text part of a section tool's result, one line per kept row: read from the
/// typed report when the section's rows list their figures (`RowMetrics`: the name,
/// then the `sort_by` figure and the row's first few top-level figures, identity
/// fields left out); else from the queried JSON (`summarize_rows`).
pub(crate) fn summary(
    report: &Report,
    section: Section,
    data: &Value,
    kept: &[usize],
    sort_by: Option<&str>,
) -> String {
    let Some(rows) = report.row_metrics(section) else { return summarize_rows(data, sort_by) };
    kept.iter()
        .filter_map(|i| rows.get(*i))
        .take(10)
        .map(|(name, metrics)| {
            let sorted = sort_by.and_then(|k| metrics.iter().find(|m| m.key == k));
            let top = metrics.iter().filter(|m| !m.key.contains('.') && Some(m.key.as_str()) != sort_by).take(4);
            let figures: Vec<String> =
                sorted.into_iter().chain(top).map(|m| format!("{}={}", m.key, compact(m.value))).collect();
            format!("- {name}: {}", figures.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One line per row for the text part of a result, for sections whose rows list no
/// figures of their own type (none today; a section added without `RowMetrics`): the name, then the `sort_by` field (when given) and the row's
/// first few top-level numbers, as the JSON has them.
pub(crate) fn summarize_rows(section: &Value, sort_by: Option<&str>) -> String {
    let rows = section.get("rows").or_else(|| section.get("runtimes")).and_then(Value::as_array);
    let Some(rows) = rows else { return String::new() };
    rows.iter()
        .take(10)
        .map(|r| {
            let name = r.get("name").and_then(Value::as_str).unwrap_or("?");
            let sorted = sort_by.and_then(|k| number_at(r, k).map(|v| format!("{k}={}", compact(v))));
            let numbers = r.as_object().into_iter().flatten().filter(|(k, _)| Some(k.as_str()) != sort_by);
            let numbers = numbers.filter(|(k, _)| k.as_str() != "line").filter_map(|(k, v)| v.as_f64().map(|v| (k, v)));
            let numbers: Vec<String> =
                sorted.into_iter().chain(numbers.take(4).map(|(k, v)| format!("{k}={}", compact(v)))).collect();
            format!("- {name}: {}", numbers.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn compact(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// `{"section": .., "matched": .., "data": ..}` for a section tool.
pub(crate) fn section_result(key: &str, matched: usize, data: Value) -> Value {
    json!({ "section": key, "matched_rows": matched, "data": data })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_sort_limit_on_rows() {
        let mut section = json!({"rows": [
            {"name": "app::a", "calls": 1, "read": {"bytes": 5}},
            {"name": "app::b", "calls": 9, "read": {"bytes": 1}},
            {"name": "lib::c", "calls": 4, "read": {"bytes": 9}},
        ]});
        let args = SectionArgs { sort_by: Some("read.bytes".into()), limit: Some(2), filter: None };
        assert_eq!(query(&mut section, &args).unwrap(), (3, vec![2, 0]));
        let names: Vec<&str> =
            section["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["lib::c", "app::a"]);
        let mut section = json!({"rows": [{"name": "app::a", "calls": 1}, {"name": "lib::c", "calls": 4}]});
        let args = SectionArgs { filter: Some("/^app::/".into()), ..SectionArgs::default() };
        assert_eq!(query(&mut section, &args).unwrap(), (1, vec![0]));
        assert!(query(&mut section, &SectionArgs { sort_by: Some("nope".into()), ..SectionArgs::default() }).is_err());
        assert!(query(&mut section, &SectionArgs { limit: Some(0), ..SectionArgs::default() }).is_err());
        assert!(query(&mut section, &SectionArgs { filter: Some("/(/".into()), ..SectionArgs::default() }).is_err());
    }

    /// The typed summary says what the JSON one said for the same rows.
    #[test]
    fn typed_summaries_read_like_the_json_ones() {
        let mut report = Report::default();
        let mut timing = hotpath_model::FunctionsTiming::default();
        for (name, calls, total) in [("app::a", 3, 900), ("app::b", 5, 400), ("lib::c", 1, 50)] {
            let mut row = hotpath_model::FunctionTiming::default();
            (row.name, row.calls, row.total_ns, row.line) = (name.into(), calls, total, 4);
            timing.rows.push(row);
        }
        report.functions_timing = Some(timing);
        let mut mutexes = hotpath_model::Mutexes::default();
        let mut row = hotpath_model::MutexRow::default();
        (row.name, row.instances, row.lock.acquisitions) = ("state".into(), 2, 40);
        mutexes.rows.push(row);
        report.mutexes = Some(mutexes);
        for (section, sort_by) in [(Section::FunctionsTiming, Some("total_ns")), (Section::Mutexes, None)] {
            let mut data = report.section_json(section).unwrap();
            let args =
                SectionArgs { sort_by: sort_by.map(str::to_string), filter: Some("a".into()), ..Default::default() };
            let (_, kept) = query(&mut data, &args).unwrap();
            let typed = summary(&report, section, &data, &kept, sort_by);
            assert_eq!(typed, summarize_rows(&data, sort_by), "{section:?}");
            assert!(!typed.is_empty() && !typed.contains("line="), "{typed}");
        }
    }
}
