//! The diesel adapter: diesel's default instrumentation (diesel 2.2+), set once, gives
//! every connection established afterwards an instrument that times each query from
//! its start event to its finish event, on the thread that runs it (diesel is
//! synchronous, so inside the handler's poll when a handler queries).
//!
//! The statement comes from the query's `Display`, written into a buffer the
//! connection's instrument reuses, without diesel's ` -- binds: [...]` suffix.
//! The connection URL diesel reports when it connects names the dialect, so that the
//! normalizer reads `"..."` and backslashes as that database does.
//! Transaction statements (`BEGIN`, `COMMIT`, `ROLLBACK`, `SAVEPOINT`, `RELEASE`) are
//! not counted.

use std::fmt::Write;
use std::time::Instant;

use diesel::connection::{set_default_instrumentation, Instrumentation, InstrumentationEvent};

use super::normalize::Dialect;
use super::record::{record, Library, Query};
use crate::{diag, switch};

/// Instruments every diesel connection established from now on.
pub fn instrument_diesel_sql() {
    if let Err(e) = set_default_instrumentation(instrument) {
        diag::warn(&format!("diesel queries are not measured: {e}"));
    }
}

fn instrument() -> Option<Box<dyn Instrumentation>> {
    Some(Box::new(Timer { start: None, text: String::new(), dialect: Dialect::Unknown }))
}

/// One connection's instrument.
struct Timer {
    start: Option<Instant>,
    text: String,
    dialect: Dialect,
}

impl Instrumentation for Timer {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        match event {
            InstrumentationEvent::StartEstablishConnection { url, .. } => self.dialect = Dialect::of_url(url),
            InstrumentationEvent::StartQuery { .. } => {
                self.start = switch::enabled().then(Instant::now);
            }
            InstrumentationEvent::FinishQuery { query, error, .. } => {
                let Some(start) = self.start.take() else { return };
                let ns = start.elapsed().as_nanos() as u64;
                self.text.clear();
                crate::memory::untracked(|| {
                    let _ = write!(self.text, "{query}");
                });
                let raw = strip_binds(&self.text);
                if is_transaction(raw) {
                    return;
                }
                record(&Query {
                    library: Library::Diesel,
                    dialect: self.dialect,
                    raw,
                    ns,
                    failed: error.is_some(),
                    rows_returned: None,
                    rows_affected: None,
                });
            }
            _ => {}
        }
    }
}

fn strip_binds(text: &str) -> &str {
    text.rfind(" -- binds: ").map_or(text, |i| &text[..i]).trim()
}

fn is_transaction(sql: &str) -> bool {
    let word = sql.split_whitespace().next().unwrap_or("");
    ["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "END"].iter().any(|w| word.eq_ignore_ascii_case(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statement_without_binds_and_transactions() {
        assert_eq!(strip_binds("SELECT 1 -- binds: [1, \"a\"]"), "SELECT 1");
        assert_eq!(strip_binds("SELECT '-- binds: ' -- binds: []"), "SELECT '-- binds: '");
        assert!(
            is_transaction("BEGIN") && is_transaction("savepoint diesel_savepoint_1") && !is_transaction("SELECT 1")
        );
    }
}
