//! One request being served, from its arrival to its response head: the row it counts
//! in, its route scope, its allocations, its place in the route's in-flight count.

use std::time::Instant;

use super::super::log_record::{self as logs, ServerRecord};
use super::super::recorder::with_cell;
use super::super::rows::{Key, Row, RowTable, NONE};
use super::super::scope::{self, Scope};
use super::super::text::{push_path, TextBuf};

/// Server rows; `tag` says whether axum matched a route.
pub(crate) static ROUTES: RowTable = RowTable::new("server routes");

const MATCHED: u8 = 1;
const UNMATCHED: u8 = 0;
/// The row name of requests no route matched that got an error status.
const UNMATCHED_ROUTE: &str = "<unmatched>";

/// A request from arrival to response head (or drop).
pub(crate) struct Serving {
    /// The matched route's row, or the method's `<unmatched>` row: holds the request
    /// in its in-flight count until the end.
    row: &'static Row,
    matched: bool,
    scope: Option<Scope>,
    start: Instant,
    #[cfg(feature = "alloc")]
    usage: crate::record::Usage,
    done: bool,
}

/// Whether `tag` is a matched route's.
pub(crate) fn is_matched(tag: u8) -> bool {
    tag == MATCHED
}

fn row(method: &str, route: &str, matched: bool) -> &'static Row {
    let mut text = TextBuf::new();
    text.push(method);
    text.push(" ");
    if matched {
        text.push(route);
    } else {
        push_path(&mut text, route);
    }
    let tag = if matched { MATCHED } else { UNMATCHED };
    ROUTES.get(&Key { text: text.as_str(), label: None, route: NONE, function: NONE, tag }, || None)
}

impl Serving {
    /// A request for `method` arrived; `matched` is axum's route template, if any.
    pub(crate) fn begin(method: &str, matched: Option<&str>) -> Self {
        let row = match matched {
            Some(route) => row(method, route, true),
            None => unmatched(method),
        };
        row.enter();
        let scope = (matched.is_some() && scope::enabled()).then(|| Scope::new(row.id()));
        Self {
            row,
            matched: matched.is_some(),
            scope,
            start: Instant::now(),
            #[cfg(feature = "alloc")]
            usage: crate::record::Usage::default(),
            done: false,
        }
    }

    /// Polls the handler inside the request's scope, counting the poll's allocations.
    #[inline]
    pub(crate) fn poll<R>(&mut self, f: impl FnOnce() -> R) -> R {
        let _entered = self.scope.as_ref().map(Scope::enter);
        #[cfg(feature = "alloc")]
        {
            let start = crate::record::Usage::now();
            let result = f();
            self.usage = self.usage.plus(crate::record::Usage::now().elapsed_since(start));
            result
        }
        #[cfg(not(feature = "alloc"))]
        f()
    }

    /// The response head is ready with `status`. A request no route matched counts as
    /// `METHOD <unmatched>` when the status is an error, else under its `path` with ids
    /// folded (a fallback or nested service that answered it). `path` is the request's
    /// path without its query string; the row's log keeps it.
    pub(crate) fn finish(&mut self, method: &str, path: &str, status: u16) {
        let ns = self.start.elapsed().as_nanos() as u64;
        self.done = true;
        self.row.leave();
        let row = if self.matched || status >= 400 { self.row } else { row(method, path, false) };
        logs::record(row, &ServerRecord { status, ns, route: row.text(), path });
        row.on_timeline(ns, status);
        with_cell(row.id(), |cell| {
            cell.complete(ns);
            cell.status(status);
            if let Some(scope) = &self.scope {
                cell.scope(&scope.counts());
            }
            #[cfg(feature = "alloc")]
            cell.alloc(self.usage.bytes, self.usage.allocs);
        });
    }
}

fn unmatched(method: &str) -> &'static Row {
    let mut text = TextBuf::new();
    text.push(method);
    text.push(" ");
    text.push(UNMATCHED_ROUTE);
    ROUTES.get(&Key { text: text.as_str(), label: None, route: NONE, function: NONE, tag: UNMATCHED }, || None)
}

impl Drop for Serving {
    fn drop(&mut self) {
        if !self.done {
            self.row.leave();
            with_cell(self.row.id(), |cell| cell.cancel());
        }
    }
}
