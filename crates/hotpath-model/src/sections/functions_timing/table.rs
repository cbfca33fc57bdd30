//! The printed table of the `functions_timing` section.

use crate::format::{format_count, format_duration_ns, format_percent};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;
use crate::percentiles::percentile_label;

use super::FunctionsTiming;

impl FunctionsTiming {
    /// The `functions-timing` table.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let wall = meta.wall_ns;
        let mut header = vec!["Function".to_string(), "Calls".into(), "Avg".into()];
        header.extend(meta.percentiles.iter().map(|p| percentile_label(*p).to_uppercase()));
        header.extend(["Total".into(), "% Total".into(), "Self".into(), "% Self".into()]);
        let mut table = Table::new(header);
        for row in &self.rows {
            let mut cells = vec![row.name.clone(), format_count(row.calls), format_duration_ns(row.avg_ns)];
            cells.extend(
                meta.percentiles
                    .iter()
                    .map(|p| row.percentiles_ns.get(*p).map_or_else(|| "-".into(), format_duration_ns)),
            );
            cells.extend([
                format_duration_ns(row.total_ns),
                format_percent(row.total_ns, wall),
                format_duration_ns(row.self_ns),
                format_percent(row.self_ns, wall),
            ]);
            table.row(cells);
        }
        let calls: u64 = self.rows.iter().map(|r| r.calls).sum();
        let summary = format!("{}, {} calls shown", shown(self.rows.len(), self.total_functions), format_count(calls));
        titled(
            "functions-timing",
            "Execution time of measured functions; % of wall time, Self excludes nested measured calls.",
            &summary,
            &table,
        )
    }
}
