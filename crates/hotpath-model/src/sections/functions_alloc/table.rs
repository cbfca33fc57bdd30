//! The printed table of the `functions_alloc` section.

use crate::format::{format_bytes, format_count, format_percent};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;
use crate::percentiles::{percentile_label, Percentiles};

use super::{FunctionAlloc, FunctionsAlloc};

impl FunctionsAlloc {
    /// The `functions-alloc` section: a bytes table and an allocation-count table.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let bytes = self.grid(
            meta,
            |r| (r.bytes_avg, &r.bytes_percentiles, r.bytes_total),
            self.process_alloc_bytes,
            format_bytes,
        );
        let counts = self.grid(
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

    fn grid(
        &self,
        meta: &Meta,
        pick: impl Fn(&FunctionAlloc) -> (u64, &Percentiles, u64),
        whole: u64,
        format: fn(u64) -> String,
    ) -> Table {
        let mut header = vec!["Function".to_string(), "Calls".into(), "Avg".into()];
        header.extend(meta.percentiles.iter().map(|p| percentile_label(*p).to_uppercase()));
        header.extend(["Total".into(), "% Total".into()]);
        let mut table = Table::new(header).names(meta.name_width);
        for row in &self.rows {
            let (avg, percentiles, total) = pick(row);
            let mut cells = vec![
                crate::format::short_name(&row.name, meta.name_depth).to_string(),
                format_count(row.calls),
                format(avg),
            ];
            cells.extend(meta.percentiles.iter().map(|p| percentiles.get(*p).map_or_else(|| "-".into(), format)));
            cells.extend([format(total), format_percent(total, whole)]);
            table.row(cells);
        }
        table
    }
}
