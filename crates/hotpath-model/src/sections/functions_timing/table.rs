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
        // Calls in flight, only when some are: a loop that never returns shows here.
        let running = self.rows.iter().any(|r| r.active > 0);
        if running {
            header.extend(["Active".into(), "Oldest".into()]);
        }
        let mut table = Table::new(header).names(meta.name_width);
        for row in &self.rows {
            let calls = match row.timed_calls {
                Some(timed) => format!("{} ({} timed)", format_count(row.calls), format_count(timed)),
                None => format_count(row.calls),
            };
            let name = short_name(&row.name, meta.name_depth).to_string();
            // A row of calls in flight only has no durations yet.
            let duration = |ns: Option<u64>| match (row.calls, ns) {
                (0, _) | (_, None) => "-".to_string(),
                (_, Some(ns)) => format_duration_ns(ns),
            };
            // Under the overhead budget, an estimate is marked `≈`, totals with their
            // 95% interval's half width.
            let est = row.estimate.as_ref();
            let approx = |text: String| if est.is_some() { format!("≈{text}") } else { text };
            let within = |text: String, ns: u64, ci: Option<[u64; 2]>| match ci {
                Some(ci) => format!("≈{text} ±{:.1}%", crate::Estimate::relative_half_width(ns, ci) * 100.0),
                None => text,
            };
            let mut cells = vec![name, calls, approx(duration(Some(row.avg_ns)))];
            cells.extend(meta.percentiles.iter().map(|p| approx(duration(row.percentiles_ns.get(*p)))));
            let share = if row.calls == 0 { "-".to_string() } else { format_percent(row.total_ns, wall) };
            cells.extend([
                within(duration(Some(row.total_ns)), row.total_ns, est.map(|e| e.total_ns_ci95)),
                share,
                within(format_duration_ns(row.self_ns), row.self_ns, est.map(|e| e.self_ns_ci95)),
                format_percent(row.self_ns, wall),
            ]);
            if running {
                cells.extend(active_cells(row.active, row.oldest_active_ns));
            }
            table.row(cells);
        }
        let calls: u64 = self.rows.iter().map(|r| r.calls).sum();
        let summary = format!("{}, {} calls shown", shown(self.rows.len(), self.total_functions), format_count(calls));
        let mut text = titled(
            "functions-timing",
            if meta.wrapper_excluded {
                "Execution time of measured functions; % of all rows' time, Self excludes nested measured calls."
            } else {
                "Execution time of measured functions; % of wall time, Self excludes nested measured calls."
            },
            &summary,
            &table,
        );
        if self.rows.iter().any(|r| r.estimate.is_some()) {
            text.push_str("≈: estimated from the timed calls under the overhead budget; ± is the 95% interval\n");
        }
        if let Some(note) = self.outlier_note(&meta.percentiles, meta.name_depth) {
            text.push_str(&note);
            text.push('\n');
        }
        text
    }

    /// When a row's mean is above its highest shown percentile, a few slow calls make
    /// most of its time: one line naming those rows with their longest call
    /// (`Avg above P99: app::parse (max 12.00 ms)`), named as the table names them
    /// (`name_depth` path segments). `None` when no row is so.
    pub fn outlier_note(&self, percentiles: &[f64], name_depth: usize) -> Option<String> {
        let top = percentiles.iter().copied().fold(None, |m: Option<f64>, p| Some(m.map_or(p, |m| m.max(p))))?;
        let rows: Vec<String> = self
            .rows
            .iter()
            .filter(|r| r.calls > 0 && r.percentiles_ns.get(top).is_some_and(|p| r.avg_ns > p))
            .map(|r| format!("{} (max {})", crate::grid::clean(short_name(&r.name, name_depth)), format_duration_ns(r.max_ns)))
            .collect();
        (!rows.is_empty()).then(|| {
            format!(
                "Avg above {}, a few slow calls dominate the mean: {}",
                percentile_label(top).to_uppercase(),
                rows.join(", ")
            )
        })
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

/// The Active and Oldest cells: calls in flight and the age of the oldest, `-` for none.
pub(crate) fn active_cells(active: u64, oldest_ns: Option<u64>) -> [String; 2] {
    match (active, oldest_ns) {
        (0, _) => ["-".into(), "-".into()],
        (n, Some(ns)) => [format_count(n), format_duration_ns(ns)],
        (n, None) => [format_count(n), "-".into()],
    }
}

#[cfg(test)]
mod tests {
    use super::super::FunctionTiming;
    use super::*;
    use crate::percentiles::Percentiles;

    fn meta() -> Meta {
        Meta { wall_ns: 2_000_000_000, percentiles: vec![50.0, 99.0], ..Meta::default() }
    }

    fn row(name: &str, calls: u64, avg_ns: u64, p99_ns: u64) -> FunctionTiming {
        FunctionTiming {
            name: name.into(),
            calls,
            total_ns: calls * avg_ns,
            self_ns: calls * avg_ns,
            avg_ns,
            max_ns: 290_000,
            percentiles_ns: Percentiles(vec![(50.0, p99_ns / 2), (99.0, p99_ns)]),
            ..FunctionTiming::default()
        }
    }

    #[test]
    fn calls_in_flight_have_active_and_oldest_columns() {
        let mut running = row("app::serve", 0, 0, 0);
        (running.active, running.oldest_active_ns, running.self_ns) = (4, Some(2_200_000_000), 5_000);
        let section = FunctionsTiming { total_functions: 2, rows: vec![row("app::load", 3, 1_000, 1_000), running] };
        let text = section.table(&meta());
        let header = text.lines().find(|l| l.starts_with("| Function")).unwrap();
        assert!(header.trim_end().ends_with("| Self    | % Self | Active | Oldest |"), "{header}");
        let serve = "| app::serve | 0     | -       | -      | -       | -       | -       | 5.00 µs | 0.0%   | 4      | 2.20 s |";
        assert!(text.contains(serve), "{text}");
        assert!(text.contains("| app::load  | 3     | 1.00 µs |"), "{text}");
        assert!(text.lines().any(|l| l.starts_with("| app::load") && l.trim_end().ends_with("| -      | -      |")));
        let quiet = FunctionsTiming { total_functions: 1, rows: vec![row("app::load", 3, 1_000, 1_000)] };
        assert!(!quiet.table(&meta()).contains("Active"), "only while calls are in flight");
    }

    #[test]
    fn a_mean_above_the_highest_percentile_is_noted_under_the_table() {
        let section = FunctionsTiming {
            total_functions: 2,
            rows: vec![row("app::parse_line", 1000, 647, 352), row("app::load", 3, 1_000, 1_000)],
        };
        let text = section.table(&meta());
        let note = "Avg above P99, a few slow calls dominate the mean: app::parse_line (max 290.00 µs)";
        assert_eq!(text.lines().last(), Some(note), "{text}");
        let short = section.outlier_note(&[99.0], 1).unwrap();
        assert!(short.ends_with(": parse_line (max 290.00 µs)"), "the table's names: {short}");
        assert_eq!(section.outlier_note(&[], 0), None, "no percentile shown, nothing to compare");
        let even = FunctionsTiming { total_functions: 1, rows: vec![row("app::load", 3, 1_000, 1_000)] };
        assert_eq!(even.outlier_note(&[50.0, 99.0], 0), None);
    }
}
