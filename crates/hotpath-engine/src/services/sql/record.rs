//! Recording one finished query, whichever library reported it.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use super::cache::{self, Issuer};
use super::normalize::{normalize, Dialect, Kind};
use crate::services::log_record::{self as logs, SqlRecord};
use crate::services::recorder::with_cell;
use crate::services::rows::{Key, RowTable};
use crate::services::scope;
use crate::switch;

/// Query rows; `tag` is the library.
pub(crate) static QUERIES: RowTable = RowTable::new("SQL queries");

static RAW_EXAMPLES: AtomicBool = AtomicBool::new(false);

/// Keeps the first raw statement of each row, and each execution's in the row's log
/// (`HOTPATH_SQL_RAW_LOGS`): it may hold literals, so it is off by default.
pub(crate) fn set_raw_examples(on: bool) {
    RAW_EXAMPLES.store(on, Relaxed);
}

/// A raw sample is cut to this many bytes (at a character boundary).
const EXAMPLE_BYTES: usize = 1024;
/// Of a longer statement, only this many bytes are hashed and normalized: the work
/// per query is bounded (statements that differ only past it share a row).
const RAW_BYTES: usize = 1 << 20;

/// The libraries, as row tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Library {
    #[cfg(feature = "sqlx")]
    Sqlx = 0,
    #[cfg(feature = "diesel")]
    Diesel = 1,
}

impl Library {
    /// The library of a row tag (the discriminants above).
    pub(crate) fn name(tag: u8) -> &'static str {
        match tag {
            1 => "diesel",
            _ => "sqlx",
        }
    }
}

/// One finished query.
pub(crate) struct Query<'a> {
    pub(crate) library: Library,
    /// The dialect, where the library says which.
    pub(crate) dialect: Dialect,
    /// The statement as the library gave it.
    pub(crate) raw: &'a str,
    pub(crate) ns: u64,
    pub(crate) failed: bool,
    pub(crate) rows_returned: Option<u64>,
    pub(crate) rows_affected: Option<u64>,
}

/// Counts `query` in its row, and in the route scope it ran in.
pub(crate) fn record(query: &Query<'_>) {
    if !switch::enabled() {
        return;
    }
    let issuer =
        Issuer { route: scope::current_route(), function: scope::current_function(), library: query.library as u8 };
    let raw = prefix(query.raw, RAW_BYTES);
    let (row, kind) = cache::row(raw, query.dialect as u8, issuer, || {
        crate::memory::untracked(|| {
            let normalized = normalize(raw, query.dialect);
            let key = Key {
                text: &normalized.text,
                label: None,
                route: issuer.route,
                function: issuer.function,
                tag: issuer.library,
            };
            (QUERIES.get(&key, || RAW_EXAMPLES.load(Relaxed).then(|| example(query.raw))), normalized.kind)
        })
    });
    scope::add_sql(issuer.route, query.ns);
    let affected = query.rows_affected.filter(|_| kind != Kind::Read);
    let raw = RAW_EXAMPLES.load(Relaxed).then_some(raw);
    let record = SqlRecord {
        ns: query.ns,
        rows: query.rows_returned,
        affected,
        failed: query.failed,
        statement: row.text(),
        raw,
    };
    logs::record(row, &record);
    row.on_timeline(query.ns, 0);
    with_cell(row.id(), |cell| {
        cell.complete(query.ns);
        if query.failed {
            cell.error(false);
        }
        if let Some(n) = query.rows_returned {
            cell.amount(0, n);
        }
        // What sqlx reports as affected by a query that only reads is the count of an
        // earlier write on the connection (SQLite's `changes()`), not this query's.
        if let Some(n) = affected {
            cell.amount(1, n);
        }
    });
}

fn example(raw: &str) -> Box<str> {
    prefix(raw, EXAMPLE_BYTES).trim().into()
}

/// At most `bytes` of `text`, cut at a character boundary.
fn prefix(text: &str, bytes: usize) -> &str {
    let mut end = text.len().min(bytes);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}
