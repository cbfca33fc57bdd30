//! The `functions-alloc` section: heap allocations per call of measured functions.

use serde::{Deserialize, Serialize};

use crate::format::{format_bytes, format_count, format_percent};
use crate::percentiles::{percentile_label, Percentiles};
use crate::report::Meta;
use crate::table::{shown, titled, Table};

/// Allocations of every measured function (needs the `hotpath-alloc` feature).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FunctionsAlloc {
    /// `exclusive` (nested measured calls' allocations not counted, the default) or `inclusive`.
    pub mode: String,
    /// Bytes allocated by the whole program during profiling (denominator of % Total).
    pub process_alloc_bytes: u64,
    /// Allocations made by the whole program during profiling.
    pub process_allocs: u64,
    /// Functions with at least one call, before the focus filter and the row limit.
    pub total_functions: usize,
    /// Rows after focus and limit, sorted by bytes allocated, largest first.
    pub rows: Vec<FunctionAlloc>,
}

/// One measured function's allocations.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FunctionAlloc {
    /// Display name, as in `functions_timing`.
    pub name: String,
    /// Source file of the annotated item.
    pub file: String,
    /// Source line of the annotated item.
    pub line: u32,
    /// Async calls sum the allocations of all their polls, on any thread.
    pub is_async: bool,
    /// Completed calls.
    pub calls: u64,
    /// Bytes allocated by all calls (in inclusive mode, outermost calls only).
    pub bytes_total: u64,
    /// Mean bytes allocated per call.
    pub bytes_avg: u64,
    /// Most bytes allocated by one call.
    pub bytes_max: u64,
    /// Configured percentiles of bytes per call.
    pub bytes_percentiles: Percentiles,
    /// Allocations made by all calls (in inclusive mode, outermost calls only).
    pub allocs_total: u64,
    /// Mean allocations per call.
    pub allocs_avg: u64,
    /// Most allocations made by one call.
    pub allocs_max: u64,
    /// Configured percentiles of allocations per call.
    pub allocs_percentiles: Percentiles,
}

impl FunctionsAlloc {
    /// The `functions-alloc` section: a bytes table and an allocation-count table.
    pub(crate) fn render(&self, meta: &Meta) -> String {
        let bytes = self.table(
            meta,
            |r| (r.bytes_avg, &r.bytes_percentiles, r.bytes_total),
            self.process_alloc_bytes,
            format_bytes,
        );
        let counts = self.table(
            meta,
            |r| (r.allocs_avg, &r.allocs_percentiles, r.allocs_total),
            self.process_allocs,
            format_count,
        );
        let summary = format!(
            "{}, {} mode; program allocated {} in {} allocations",
            shown(self.rows.len(), self.total_functions),
            self.mode,
            format_bytes(self.process_alloc_bytes),
            format_count(self.process_allocs)
        );
        let mut out = titled(
            "functions-alloc",
            "Heap allocations per call of measured functions; % of all allocations of the program.",
            &summary,
            &bytes,
        );
        out.push_str("Allocation count per call\n");
        out.push_str(&counts.render());
        out
    }

    fn table(
        &self,
        meta: &Meta,
        pick: impl Fn(&FunctionAlloc) -> (u64, &Percentiles, u64),
        whole: u64,
        format: fn(u64) -> String,
    ) -> Table {
        let mut header = vec!["Function".to_string(), "Calls".into(), "Avg".into()];
        header.extend(meta.percentiles.iter().map(|p| percentile_label(*p).to_uppercase()));
        header.extend(["Total".into(), "% Total".into()]);
        let mut table = Table::new(header);
        for row in &self.rows {
            let (avg, percentiles, total) = pick(row);
            let mut cells = vec![row.name.clone(), format_count(row.calls), format(avg)];
            cells.extend(meta.percentiles.iter().map(|p| percentiles.get(*p).map_or_else(|| "-".into(), format)));
            cells.extend([format(total), format_percent(total, whole)]);
            table.row(cells);
        }
        table
    }
}
