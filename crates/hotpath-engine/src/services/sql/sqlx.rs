//! The sqlx adapter: a `tracing` layer that reads the events sqlx emits for every
//! query (target `sqlx::query`) in sqlx 0.8 and 0.9, so nothing of sqlx is linked.
//!
//! Fields read: `db.statement` (the whole statement when sqlx shortened the summary),
//! else `summary`; `elapsed_secs` (sqlx's own timing); `rows_returned`,
//! `rows_affected`. sqlx does not say whether a query failed. The event is emitted
//! where sqlx runs the statement: for SQLite that is sqlx's worker thread, outside any
//! route scope; for PostgreSQL and MySQL the task that awaits the query. That worker
//! thread's name (`sqlx-sqlite-worker-N`) is the one hint of the dialect sqlx gives,
//! and the user may rename it (`SqliteConnectOptions::thread_name`): a renamed worker's
//! queries are read as of an unknown dialect, where `$1` (which sqlx's SQLite uses
//! too) is no sign of PostgreSQL, so `"..."` strings stay hidden there.

use std::cell::RefCell;
use std::fmt;

use tracing_core::field::{Field, Visit};
use tracing_core::{Event, Subscriber};
use tracing_subscriber::layer::{Context, Layer};

use super::normalize::Dialect;
use super::record::{record, Library, Query};
use crate::switch;

/// The target of sqlx's query events.
const TARGET: &str = "sqlx::query";

/// Records sqlx's query events: `registry().with(hotpath::sqlx_tracing_layer())`.
#[derive(Clone, Copy, Debug, Default)]
pub struct SqlxLayer;

/// The layer `hotpath::sqlx_tracing_layer()` returns.
pub fn sqlx_tracing_layer() -> SqlxLayer {
    SqlxLayer
}

thread_local! {
    /// The statement of the event being read, reused from event to event.
    static STATEMENT: RefCell<String> = const { RefCell::new(String::new()) };
    /// The dialect this thread's queries are in: SQLite on sqlx's SQLite workers.
    static DIALECT: Dialect = crate::memory::untracked(|| {
        let sqlite = std::thread::current().name().is_some_and(|n| n.starts_with("sqlx-sqlite-worker"));
        if sqlite { Dialect::Sqlite } else { Dialect::Unknown }
    });
}

impl<S: Subscriber> Layer<S> for SqlxLayer {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        if !switch::enabled() || event.metadata().target() != TARGET {
            return;
        }
        let _ = STATEMENT.try_with(|buffer| {
            let Ok(mut buffer) = buffer.try_borrow_mut() else { return };
            buffer.clear();
            let mut fields =
                Fields { statement: &mut buffer, from_statement: false, secs: None, returned: None, affected: None };
            crate::memory::untracked(|| event.record(&mut fields));
            let Fields { secs, returned, affected, .. } = fields;
            let raw = buffer.trim();
            if raw.is_empty() {
                return;
            }
            let ns = secs.map_or(0, |s| (s * 1e9) as u64);
            record(&Query {
                library: Library::Sqlx,
                dialect: DIALECT.try_with(|d| *d).unwrap_or(Dialect::Unknown),
                raw,
                ns,
                failed: false,
                rows_returned: returned,
                rows_affected: affected,
            });
        });
    }
}

/// The fields of one query event.
struct Fields<'a> {
    statement: &'a mut String,
    /// True once `db.statement` gave the whole text (it wins over `summary`).
    from_statement: bool,
    secs: Option<f64>,
    returned: Option<u64>,
    affected: Option<u64>,
}

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "db.statement" if !value.trim().is_empty() => {
                self.statement.clear();
                self.statement.push_str(value);
                self.from_statement = true;
            }
            "summary" if !self.from_statement => {
                self.statement.clear();
                self.statement.push_str(value);
            }
            _ => {}
        }
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        if field.name() == "elapsed_secs" && value.is_finite() && value >= 0.0 {
            self.secs = Some(value);
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        match field.name() {
            "rows_returned" => self.returned = Some(value),
            "rows_affected" => self.affected = Some(value),
            _ => {}
        }
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.record_u64(field, value.max(0) as u64);
    }

    fn record_debug(&mut self, _: &Field, _: &dyn fmt::Debug) {}
}
