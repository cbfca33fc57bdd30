//! Builds the `functions-icount` section: the graph's counts per marker tag, joined
//! with the measured sites that carry those tags; rows merged by display name, most
//! instructions first, then focus and limit as for every function section.

use std::collections::HashMap;

use hotpath_model::{FunctionIcount, FunctionsIcount};

use super::graph::TagCounts;
use crate::options::Options;
use crate::record::{registered_sites, select, SiteKind, SiteTotals};

/// What the dump said: per tag counts, the whole run's instructions, the tool.
pub(crate) struct Counts {
    pub(crate) tags: HashMap<String, TagCounts>,
    pub(crate) program_ir: u64,
    pub(crate) tool: String,
    pub(crate) dump_file: String,
}

pub(crate) fn section(counts: &Counts, totals: &[SiteTotals], options: &Options) -> FunctionsIcount {
    let mut rows: Vec<FunctionIcount> = Vec::new();
    let mut uncounted: Vec<String> = Vec::new();
    for (id, site) in registered_sites().into_iter().enumerate().skip(1) {
        if site.kind() != SiteKind::Function {
            continue;
        }
        let native = totals.get(id);
        // Under Callgrind time sampling is off: every call is an untimed one.
        let ran = native.is_some_and(|t| t.calls + t.untimed + t.cancelled + t.polls + t.active > 0);
        let name = site.name();
        let tagged = site.icount_tag().and_then(|tag| counts.tags.get(tag).map(|c| (tag, c)));
        let Some((_, c)) = tagged.filter(|(_, c)| c.calls > 0) else {
            if ran {
                let why = match site.icount_tag() {
                    None => "built without the hotpath-callgrind macros, or its label is computed at run time",
                    Some("") => "its body cannot run in a marker function (a block with return, ?, break or continue, or a function that never returns)",
                    Some(_) => "its marker function is not in the Callgrind dump (a stripped binary?)",
                };
                let line = format!("{name}: {why}");
                if !uncounted.contains(&line) {
                    uncounted.push(line);
                }
            }
            continue;
        };
        let is_async = site.is_async();
        // Async markers run once per poll: the calls are the completed calls counted natively.
        let (calls, polls) = if is_async { (native.map_or(0, |t| t.calls + t.untimed), c.calls) } else { (c.calls, 0) };
        match rows.iter_mut().find(|r| r.name == name) {
            Some(row) => {
                row.calls += calls;
                row.polls += polls;
                row.ir += c.ir;
                row.self_ir += c.self_ir;
            }
            None => {
                let mut row = FunctionIcount::default();
                row.name = name;
                row.file = site.file().to_string();
                row.line = site.line();
                row.is_async = is_async;
                row.calls = calls;
                row.polls = polls;
                row.ir = c.ir;
                row.self_ir = c.self_ir;
                rows.push(row);
            }
        }
    }
    for row in &mut rows {
        row.ir_per_call = row.ir.checked_div(row.calls).unwrap_or(0);
    }
    rows.sort_by(|a, b| b.ir.cmp(&a.ir).then_with(|| a.name.cmp(&b.name)));
    let (total_functions, rows) = select(rows, |r| &r.name, options);
    let mut section = FunctionsIcount::default();
    section.tool = counts.tool.clone();
    section.dump_file = counts.dump_file.clone();
    section.program_ir = counts.program_ir;
    section.total_functions = total_functions;
    section.uncounted = uncounted;
    section.rows = rows;
    section
}
