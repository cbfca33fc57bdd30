//! The readers of the SQL, HTTP client and server rows' logs (`log_record.rs` writes
//! them): each row's log under the row's name as its section names it.

use crate::logs::LogRing;

/// The logs of the rows that logged something, as (section, row name as in the
/// report, log).
pub(crate) fn row_logs() -> Vec<(&'static str, String, &'static LogRing)> {
    #[allow(unused_mut)]
    let mut out: Vec<(&'static str, String, &'static LogRing)> = Vec::new();
    #[cfg(feature = "axum")]
    let routes = super::server::section::rows();
    #[cfg(feature = "axum")]
    for row in &routes {
        if row.log().total() > 0 {
            out.push(("server", row.text().to_string(), row.log()));
        }
    }
    #[cfg(any(feature = "services-http", feature = "services-sql"))]
    {
        #[cfg(not(feature = "axum"))]
        let routes = Vec::new();
        let names = super::names::Names::new(&routes);
        let name = |row: &super::rows::Row, base: &str| {
            super::names::row_name(base, names.route(row.route()).as_ref(), names.function(row.function()).as_ref())
        };
        #[cfg(feature = "services-http")]
        for row in super::http::call::ENDPOINTS.all().into_iter().filter(|r| r.log().total() > 0) {
            let base = match row.label() {
                Some(label) => format!("{label}: {}", row.text()),
                None => row.text().to_string(),
            };
            out.push(("http", name(row, &base), row.log()));
        }
        #[cfg(feature = "services-sql")]
        for row in super::sql::record::QUERIES.all().into_iter().filter(|r| r.log().total() > 0) {
            out.push(("sql", name(row, row.text()), row.log()));
        }
    }
    out
}
