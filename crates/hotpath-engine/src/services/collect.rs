//! The engine's entry points into the HTTP and SQL instruments: configuration at the
//! start of a session, and the sections of the features on at a report.

use super::recorder;
use super::rows::set_limit;
use crate::options::Options;

/// Applies the session's settings: rows per table, route scope, raw SQL samples.
pub(crate) fn configure(options: &Options) {
    set_limit(options.logs.entries);
    #[cfg(feature = "axum")]
    super::scope::set_route_scope(options.route_scope);
    #[cfg(feature = "services-sql")]
    super::sql::record::set_raw_examples(options.sql_raw_logs);
}

/// The sections of the features on, built from one collection of the cells.
pub(crate) struct Sections {
    #[cfg(feature = "axum")]
    pub(crate) server: Option<hotpath_model::Server>,
    #[cfg(feature = "services-http")]
    pub(crate) http: Option<hotpath_model::Http>,
    #[cfg(feature = "services-sql")]
    pub(crate) sql: Option<hotpath_model::Sql>,
}

/// Builds the sections; `ratio` converts function time from clock ticks.
pub(crate) fn sections(ratio: f64, options: &Options) -> Sections {
    let totals = recorder::collect();
    #[cfg(any(feature = "services-http", feature = "services-sql"))]
    let names = {
        #[cfg(feature = "axum")]
        let routes = super::server::section::rows();
        #[cfg(not(feature = "axum"))]
        let routes = Vec::new();
        super::names::Names::new(&routes)
    };
    #[cfg(not(feature = "axum"))]
    let _ = ratio;
    Sections {
        #[cfg(feature = "axum")]
        server: super::server::section::section(&totals, ratio, options),
        #[cfg(feature = "services-http")]
        http: super::http::section::section(&totals, &names, options),
        #[cfg(feature = "services-sql")]
        sql: super::sql::section::section(&totals, &names, options),
    }
}
