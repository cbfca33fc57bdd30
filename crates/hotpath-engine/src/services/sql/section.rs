//! The `sql` section from the query rows and their merged totals.

use hotpath_model::{Sql, SqlRow};

use super::record::{Library, QUERIES};
use crate::options::Options;
use crate::record::select;
use crate::services::cell::RequestTotals;
use crate::services::names::{row_name, Names};
use crate::services::totals::{self, by_total};

/// Rows with calls, by total time. `None` when no query was seen.
pub(crate) fn section(totals: &[RequestTotals], names: &Names, options: &Options) -> Option<Sql> {
    let empty = RequestTotals::default();
    let mut rows: Vec<SqlRow> = Vec::new();
    for query in QUERIES.all() {
        let t = totals.get(query.id() as usize).unwrap_or(&empty);
        if t.calls == 0 {
            continue;
        }
        let mut row = SqlRow::default();
        row.query = query.text().to_string();
        row.library = Library::name(query.tag()).to_string();
        row.route = names.route(query.route());
        row.function = names.function(query.function());
        row.name = row_name(&row.query, row.route.as_ref(), row.function.as_ref());
        row.calls = t.calls;
        row.errors = t.errors;
        row.rows_returned = t.amounts[0];
        row.rows_affected = t.amounts[1];
        row.latency = totals::latency(t, options);
        row.raw_example = query.example().map(str::to_string);
        rows.push(row);
    }
    if rows.is_empty() {
        return None;
    }
    let calls = rows.iter().map(|r| r.calls).sum();
    let total_ns = totals::shares(&mut rows, |r| (r.latency.total_ns, &mut r.total_percent));
    by_total(&mut rows, |r| (r.latency.total_ns, r.name.as_str()));
    let (total_queries, rows) = select(rows, |r| &r.name, options);
    let mut section = Sql::default();
    section.total_queries = total_queries;
    section.calls = calls;
    section.total_ns = total_ns;
    section.rows = rows;
    Some(section)
}
