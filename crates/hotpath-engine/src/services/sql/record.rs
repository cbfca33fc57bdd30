//! Recording one finished query, whichever library reported it.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use super::cache::{self, Issuer};
use super::normalize::normalize;
use crate::services::recorder::with_cell;
use crate::services::rows::{Key, RowTable};
use crate::services::scope;
use crate::switch;

/// Query rows; `tag` is the library.
pub(crate) static QUERIES: RowTable = RowTable::new("SQL queries");

static RAW_EXAMPLES: AtomicBool = AtomicBool::new(false);

/// Keeps the first raw statement of each row (`HOTPATH_SQL_RAW_LOGS`): it may hold
/// literals, so it is off by default.
pub(crate) fn set_raw_examples(on: bool) {
    RAW_EXAMPLES.store(on, Relaxed);
}

/// A raw sample is cut to this many bytes (at a character boundary).
const EXAMPLE_BYTES: usize = 1024;

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
    let row = cache::row(query.raw, issuer, || {
        crate::memory::untracked(|| {
            let text = normalize(query.raw);
            let key =
                Key { text: &text, label: None, route: issuer.route, function: issuer.function, tag: issuer.library };
            QUERIES.get(&key, || RAW_EXAMPLES.load(Relaxed).then(|| example(query.raw)))
        })
    });
    scope::add_sql(issuer.route, query.ns);
    with_cell(row.id(), |cell| {
        cell.complete(query.ns);
        if query.failed {
            cell.error(false);
        }
        if let Some(n) = query.rows_returned {
            cell.amount(0, n);
        }
        if let Some(n) = query.rows_affected {
            cell.amount(1, n);
        }
    });
}

fn example(raw: &str) -> Box<str> {
    let mut end = raw.len().min(EXAMPLE_BYTES);
    while !raw.is_char_boundary(end) {
        end -= 1;
    }
    raw[..end].trim().into()
}
