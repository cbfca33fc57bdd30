//! The terminal report: a header line, then one titled table per section with data.

use crate::format::{format_count, format_duration_ns, format_percent};
use crate::functions::FunctionsTiming;
use crate::percentiles::percentile_label;
use crate::report::Report;
use crate::table::Table;

/// Renders the whole report as text tables, sections in a fixed order.
pub fn render_table(report: &Report) -> String {
    let meta = &report.meta;
    let wall = format_duration_ns(meta.wall_ns);
    if report.is_empty() {
        return format!("[hotpath] No measurements recorded from {} ({wall} wall time)\n", meta.caller);
    }
    let mut out = format!("[hotpath] Profile of {}: {wall} wall time ({})\n", meta.caller, ended_by(&meta.ended_by));
    if meta.dropped > 0 {
        out.push_str(&format!("[hotpath] {} measurements dropped\n", format_count(meta.dropped)));
    }
    if let Some(section) = &report.functions_timing {
        out.push('\n');
        out.push_str(&functions_timing(section, report));
    }
    out
}

fn ended_by(reason: &str) -> &str {
    match reason {
        "main_returned" => "main returned",
        "panic" => "main panicked",
        "signal" => "interrupted by a signal",
        "process_exit" => "process::exit",
        "live" => "live snapshot",
        other => other,
    }
}

/// `title - description (summary)`, then the grid; a note when rows were cut.
fn section(title: &str, description: &str, summary: &str, table: &Table) -> String {
    format!("{title} - {description} ({summary})\n{}", table.render())
}

fn shown(rows: usize, total: usize) -> String {
    if rows < total {
        format!("showing top {rows} of {total}")
    } else {
        format!("{total} total")
    }
}

fn functions_timing(s: &FunctionsTiming, report: &Report) -> String {
    let wall = report.meta.wall_ns;
    let mut header = vec!["Function".to_string(), "Calls".into(), "Avg".into()];
    header.extend(report.meta.percentiles.iter().map(|p| percentile_label(*p).to_uppercase()));
    header.extend(["Total".into(), "% Total".into(), "Self".into(), "% Self".into()]);
    let mut table = Table::new(header);
    for row in &s.rows {
        let mut cells = vec![row.name.clone(), format_count(row.calls), format_duration_ns(row.avg_ns)];
        cells.extend(
            report
                .meta
                .percentiles
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
    let calls: u64 = s.rows.iter().map(|r| r.calls).sum();
    let summary = format!("{}, {} calls shown", shown(s.rows.len(), s.total_functions), format_count(calls));
    section(
        "functions-timing",
        "Execution time of measured functions; % of wall time, Self excludes nested measured calls.",
        &summary,
        &table,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::functions::FunctionTiming;
    use crate::percentiles::Percentiles;

    fn report() -> Report {
        let mut r = Report::default();
        r.meta.caller = "demo::main".into();
        r.meta.wall_ns = 2_000_000;
        r.meta.ended_by = "main_returned".into();
        r.meta.percentiles = vec![50.0, 99.9];
        let row = FunctionTiming {
            name: "demo::parse".into(),
            calls: 4,
            total_ns: 1_000_000,
            self_ns: 500_000,
            avg_ns: 250_000,
            percentiles_ns: Percentiles(vec![(50.0, 240_000), (99.9, 300_000)]),
            ..FunctionTiming::default()
        };
        r.functions_timing = Some(FunctionsTiming { total_functions: 3, rows: vec![row] });
        r
    }

    #[test]
    fn functions_section_has_every_column() {
        let text = render_table(&report());
        let header = text.lines().find(|l| l.starts_with("| Function")).unwrap();
        let cols: Vec<&str> = header.split('|').map(str::trim).filter(|c| !c.is_empty()).collect();
        assert_eq!(cols, ["Function", "Calls", "Avg", "P50", "P99.9", "Total", "% Total", "Self", "% Self"]);
        assert!(text.contains("| demo::parse | 4     | 250.00 µs | 240.00 µs | 300.00 µs | 1.00 ms | 50.0%"));
        assert!(text.contains("functions-timing - "));
        assert!(text.contains("showing top 1 of 3"));
    }

    #[test]
    fn empty_report_says_so() {
        let mut r = report();
        r.functions_timing = None;
        assert!(render_table(&r).starts_with("[hotpath] No measurements recorded from demo::main"));
    }
}
