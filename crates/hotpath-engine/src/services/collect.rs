//! The engine's entry points into the HTTP and SQL instruments: configuration at the
//! start of a session, and the three sections at a report.

use hotpath_model::{Http, Server, Sql};

use super::names::Names;
use super::rows::set_limit;
use super::scope::set_route_scope;
use super::server::section as server;
use super::sql::record::set_raw_examples;
use super::{http, recorder, sql};
use crate::options::Options;

/// Applies the session's settings: rows per table, route scope, raw SQL samples.
pub(crate) fn configure(options: &Options) {
    set_limit(options.logs.entries);
    set_route_scope(options.route_scope);
    set_raw_examples(options.sql_raw_logs);
}

/// The three sections, built from one collection of the cells.
pub(crate) struct Sections {
    pub(crate) server: Option<Server>,
    pub(crate) http: Option<Http>,
    pub(crate) sql: Option<Sql>,
}

/// Builds the sections; `ratio` converts function time from clock ticks.
pub(crate) fn sections(ratio: f64, options: &Options) -> Sections {
    let totals = recorder::collect();
    let routes = server::rows();
    let names = Names::new(&routes);
    Sections {
        server: server::section(&totals, ratio, options),
        http: http::section::section(&totals, &names, options),
        sql: sql::section::section(&totals, &names, options),
    }
}
