//! The logs of the SQL, HTTP client and server rows: each row keeps its last
//! `HOTPATH_LOGS_LIMIT` executions or requests in its own [`LogRing`] of the debug
//! trackers' log store (same record length limit, same shared byte budget), read by
//! row name with the `log = true` logs (`logs.rs`, `crate::row_logs`, `debug.logged`).
//!
//! A record is one line of `key=value` fields, the free-text field last (it may hold
//! spaces); the store adds the time and the thread. Formatting happens on the thread
//! that saw the end (as the row's counters do), into the store's reused buffer, cut at
//! `HOTPATH_MAX_LOG_LEN` characters: no allocation per record once the ring is full.
//!
//! - `sql`: `duration_ns=N rows=N affected=N error=false statement=<normalized text>`
//!   (`rows` / `affected` when the library reports them); with `HOTPATH_SQL_RAW_LOGS=1`
//!   also `raw=<statement as run>` last. The raw text may hold literals (passwords,
//!   personal data), so it is neither read nor formatted without that switch.
//! - `http`: `method=GET status=200 duration_ns=N bytes=N url=<scheme://host:port/path>`
//!   (`status=failed` without a response; `bytes` when announced). The URL never has
//!   its query string: queries often carry tokens and keys.
//! - `server`: `status=200 duration_ns=N route=<METHOD template> path=<raw path>`,
//!   the path without its query string, for the same reason.

use std::fmt::{self, Debug};

use super::rows::Row;

/// Appends `record` to `row`'s log (nothing while no session records).
#[inline]
pub(crate) fn record(row: &'static Row, record: &dyn Debug) {
    row.log().append(record, None);
}

/// One finished query.
#[cfg(feature = "services-sql")]
pub(crate) struct SqlRecord<'a> {
    pub(crate) ns: u64,
    pub(crate) rows: Option<u64>,
    pub(crate) affected: Option<u64>,
    pub(crate) failed: bool,
    pub(crate) statement: &'a str,
    /// The statement as run, only with `HOTPATH_SQL_RAW_LOGS`.
    pub(crate) raw: Option<&'a str>,
}

#[cfg(feature = "services-sql")]
impl Debug for SqlRecord<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "duration_ns={}", self.ns)?;
        if let Some(n) = self.rows {
            write!(f, " rows={n}")?;
        }
        if let Some(n) = self.affected {
            write!(f, " affected={n}")?;
        }
        write!(f, " error={} statement={}", self.failed, self.statement)?;
        if let Some(raw) = self.raw {
            write!(f, " raw={}", raw.trim())?;
        }
        Ok(())
    }
}

/// One outgoing call.
#[cfg(feature = "services-http")]
pub(crate) struct HttpRecord<'a> {
    pub(crate) method: &'a str,
    /// `None`: no response.
    pub(crate) status: Option<u16>,
    pub(crate) ns: u64,
    pub(crate) bytes: Option<u64>,
    /// Without the query string.
    pub(crate) url: &'a str,
}

#[cfg(feature = "services-http")]
impl Debug for HttpRecord<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "method={} status=", self.method)?;
        match self.status {
            Some(status) => write!(f, "{status}")?,
            None => f.write_str("failed")?,
        }
        write!(f, " duration_ns={}", self.ns)?;
        if let Some(n) = self.bytes {
            write!(f, " bytes={n}")?;
        }
        write!(f, " url={}", self.url)
    }
}

/// One served request.
#[cfg(feature = "axum")]
pub(crate) struct ServerRecord<'a> {
    pub(crate) status: u16,
    pub(crate) ns: u64,
    pub(crate) route: &'a str,
    /// Without the query string.
    pub(crate) path: &'a str,
}

#[cfg(feature = "axum")]
impl Debug for ServerRecord<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "status={} duration_ns={} route={} path={}", self.status, self.ns, self.route, self.path)
    }
}

#[cfg(all(test, feature = "axum", feature = "services-http", feature = "services-sql"))]
mod tests {
    use super::{HttpRecord, ServerRecord, SqlRecord};

    #[test]
    fn records_are_key_value_lines_with_the_free_text_last() {
        let sql = |raw| SqlRecord {
            ns: 1200,
            rows: Some(1),
            affected: None,
            failed: false,
            statement: "SELECT a FROM t WHERE id = ?",
            raw,
        };
        assert_eq!(
            format!("{:?}", sql(None)),
            "duration_ns=1200 rows=1 error=false statement=SELECT a FROM t WHERE id = ?"
        );
        assert!(format!("{:?}", sql(Some(" SELECT a FROM t WHERE id = 7\n")))
            .ends_with("= ? raw=SELECT a FROM t WHERE id = 7"));
        let http = HttpRecord { method: "GET", status: None, ns: 5, bytes: None, url: "http://h:81/a" };
        assert_eq!(format!("{http:?}"), "method=GET status=failed duration_ns=5 url=http://h:81/a");
        let http = HttpRecord { status: Some(200), bytes: Some(3), ..http };
        assert_eq!(format!("{http:?}"), "method=GET status=200 duration_ns=5 bytes=3 url=http://h:81/a");
        let server = ServerRecord { status: 404, ns: 9, route: "GET /u/{id}", path: "/u/7" };
        assert_eq!(format!("{server:?}"), "status=404 duration_ns=9 route=GET /u/{id} path=/u/7");
    }
}
