//! Names of what issued a call or query (the route, the measured function), looked up
//! once per report, and the unique row names built from them.

use std::collections::HashMap;

use super::rows::{Row, NONE};

/// Route and function names by id.
pub(crate) struct Names {
    routes: HashMap<u32, &'static str>,
    functions: Vec<&'static crate::record::FnSite>,
}

impl Names {
    /// Names of the server rows in `routes`, and of the registered functions.
    pub(crate) fn new(routes: &[&'static Row]) -> Self {
        Self {
            routes: routes.iter().map(|&r| (r.id(), r.text())).collect(),
            functions: crate::record::registered_sites(),
        }
    }

    pub(crate) fn route(&self, id: u32) -> Option<String> {
        (id != NONE).then(|| self.routes.get(&id).map(|s| (*s).to_string())).flatten()
    }

    pub(crate) fn function(&self, id: u32) -> Option<String> {
        if id == NONE {
            return None;
        }
        self.functions.get(id as usize).map(|site| site.name())
    }
}

/// `base`, then ` <- route` and ` in function` when known: unique per row, as every
/// reader of the report keys rows by name.
pub(crate) fn row_name(base: &str, route: Option<&String>, function: Option<&String>) -> String {
    let mut name = base.to_string();
    if let Some(route) = route {
        name.push_str(" <- ");
        name.push_str(route);
    }
    if let Some(function) = function {
        name.push_str(" in ");
        name.push_str(function);
    }
    name
}
