//! The printed table of the `functions_timing` section.

use crate::format::{format_count, format_duration_ns, format_percent, short_name};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;
use crate::percentiles::percentile_label;

use super::FunctionsTiming;

impl FunctionsTiming {
    /// The `functions-timing` table.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        if meta.untimed() {
            return self.calls_table(meta);
        }
        // % of wall time, or of the rows' sum when the session's own row is left out.
        let wall = if meta.wrapper_excluded { self.rows.iter().map(|r| r.total_ns).sum() } else { meta.wall_ns };
        let mut header = vec!["Function".to_string(), "Calls".into(), "Avg".into()];
        header.extend(meta.percentiles.iter().map(|p| percentile_label(*p).to_uppercase()));
        header.extend(["Total".into(), "% Total".into(), "Self".into(), "% Self".into()]);
        // Calls still running, only when some are: a loop that never returns shows here.
        let running = self.rows.iter().any(|r| r.active > 0);
        if running {
            header.push("Running".into());
        }
        let mut table = Table::new(header).names(meta.name_width);
        for row in &self.rows {
            let calls = match row.timed_calls {
                Some(timed) => format!("{} ({} timed)", format_count(row.calls), format_count(timed)),
                None => format_count(row.calls),
            };
            let name = short_name(&row.name, meta.name_depth).to_string();
            let mut cells = vec![name, calls, format_duration_ns(row.avg_ns)];
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
            if running {
                cells.push(running_cell(row.active, row.oldest_active_ns));
            }
            table.row(cells);
        }
        let calls: u64 = self.rows.iter().map(|r| r.calls).sum();
        let summary = format!("{}, {} calls shown", shown(self.rows.len(), self.total_functions), format_count(calls));
        titled(
            "functions-timing",
            if meta.wrapper_excluded {
                "Execution time of measured functions; % of all rows' time, Self excludes nested measured calls."
            } else {
                "Execution time of measured functions; % of wall time, Self excludes nested measured calls."
            },
            &summary,
            &table,
        )
    }
}

impl FunctionsTiming {
    /// Under Callgrind: calls only, since no call is timed (the clock is frozen) and
    /// the session's own row would show Valgrind's slowed-down wall time.
    fn calls_table(&self, meta: &Meta) -> String {
        let mut table = Table::new(["Function", "Calls"]);
        for row in &self.rows {
            table.row(vec![short_name(&row.name, meta.name_depth).to_string(), format_count(row.calls)]);
        }
        let calls: u64 = self.rows.iter().map(|r| r.calls).sum();
        let summary = format!("{}, {} calls shown", shown(self.rows.len(), self.total_functions), format_count(calls));
        titled(
            "functions-timing",
            "Calls of measured functions; under Callgrind durations are not measured (instructions: functions-icount).",
            &summary,
            &table,
        )
    }
}

/// `2 (oldest 3.20 s)`, or `-` when none run.
pub(crate) fn running_cell(active: u64, oldest_ns: Option<u64>) -> String {
    match (active, oldest_ns) {
        (0, _) => "-".into(),
        (n, Some(ns)) => format!("{} (oldest {})", format_count(n), format_duration_ns(ns)),
        (n, None) => format_count(n),
    }
}
