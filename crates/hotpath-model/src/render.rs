//! The terminal report: a header line, then one titled table per section with data.

use crate::format::{format_count, format_duration_ns};
use crate::report::Report;

/// Renders the whole report as text tables, sections in a fixed order.
pub fn render_table(report: &Report) -> String {
    let mut out = String::new();
    render_table_parts(report, &mut |part| out.push_str(part));
    out
}

/// [`render_table`] handed over a part at a time (the header, then each section, then
/// the files written): a writer of a report of many rows holds one section's text at
/// a time, not the whole report's.
pub fn render_table_parts(report: &Report, emit: &mut dyn FnMut(&str)) {
    let meta = &report.meta;
    let wall = format_duration_ns(meta.wall_ns);
    // Warnings (bad settings, a metrics port in use) follow the first line, so a
    // report written to a file still says what went wrong.
    let warnings: String = meta.warnings.iter().map(|w| format!("[hotpath] warning: {w}\n")).collect();
    if report.is_empty() {
        return emit(&format!(
            "[hotpath] No measurements recorded from {} ({wall} wall time)\n{warnings}",
            meta.caller
        ));
    }
    // Compaction drops rules between rows inside one table: per part it is the same.
    let mut emit = |text: String| if meta.compact_tables { emit(&crate::grid::compact(&text)) } else { emit(&text) };
    let label = meta.label.as_ref().map_or(String::new(), |l| format!(" | {}", crate::grid::clean(l)));
    let mut out = match meta.untimed() {
        // Under Callgrind the wall time is Valgrind's, tens of times the program's own.
        true => format!(
            "[hotpath] Profile of {} under Callgrind ({}){label}: counts and instructions only, durations are not measured\n",
            meta.caller,
            ended_by(&meta.ended_by)
        ),
        false => format!("[hotpath] Profile of {}: {wall} wall time ({}){label}\n", meta.caller, ended_by(&meta.ended_by)),
    };
    out.push_str(&warnings);
    if !meta.time_sampling.is_empty() && !meta.untimed() {
        let rates: Vec<String> = meta.time_sampling.iter().map(|(k, r)| format!("{k}={r}")).collect();
        out.push_str(&format!(
            "[hotpath] time sampling: {}; counts are exact, durations come from the timed calls and totals are estimates\n",
            rates.join(", ")
        ));
    }
    if let Some(o) = &meta.overhead {
        out.push_str(&format!(
            "[hotpath] overhead budget {}: the profiler took ≈{} of CPU time (counting every call: {}; its budget thread's decisions: {})\n",
            percent(o.budget),
            percent(o.profiler_overhead_ratio),
            percent(o.counting_floor_ratio),
            percent(o.thread_ratio)
        ));
    }
    if meta.dropped > 0 {
        out.push_str(&format!("[hotpath] {} measurements dropped\n", format_count(meta.dropped)));
    }
    if meta.negative_intervals > 0 {
        out.push_str(&format!(
            "[hotpath] {} intervals came out negative (clock readings disagreed across CPUs) and count as 0\n",
            format_count(meta.negative_intervals)
        ));
    }
    if let Some(line) = still_running(report) {
        out.push_str(&line);
    }
    if !report.user_metadata.is_empty() {
        let mut table = crate::grid::Table::new(["Key", "Value"]);
        for (k, v) in &report.user_metadata {
            table.row(vec![k.clone(), v.clone()]);
        }
        out.push_str(&format!("\nuser_metadata - Custom report metadata.\n{}", table.render()));
    }
    emit(out);
    // Every section the report has, in the table's order; each renders itself.
    for (_, section) in report.sections() {
        let mut text = String::from("\n");
        text.push_str(&section.render(meta));
        emit(text);
    }
    // Files written (CPU profiles) are named once, after every section, so they never
    // split the report.
    if let Some(cpu) = report.functions_cpu.as_ref().filter(|cpu| !cpu.files.is_empty()) {
        let mut text: String =
            cpu.files.iter().map(|file| format!("\n[hotpath] cpu profile written: {file}")).collect();
        text.push('\n');
        emit(text);
    }
}

/// On an end that interrupts the program (signal, timeout, `process::exit`, panic),
/// which measured functions were still running and for how long.
fn still_running(report: &Report) -> Option<String> {
    if report.meta.ended_by == "main_returned" {
        return None;
    }
    let rows = report.functions_timing.as_ref()?.rows.iter().filter(|r| r.active > 0 && r.name != report.meta.caller);
    let items: Vec<String> = rows
        .map(|r| {
            let age = r.oldest_active_ns.map_or(String::new(), |ns| format!(" for {}", format_duration_ns(ns)));
            format!("{} ({} running{age})", crate::grid::clean(&r.name), format_count(r.active))
        })
        .collect();
    (!items.is_empty()).then(|| format!("[hotpath] still running when the report was written: {}\n", items.join(", ")))
}

fn ended_by(reason: &str) -> &str {
    match reason {
        "main_returned" => "main returned",
        "panic" => "main panicked",
        "signal" => "interrupted by a signal",
        "process_exit" => "process::exit",
        "live" => "live snapshot",
        "timeout" => "shutdown timer",
        other => other,
    }
}

/// A fraction as a percentage with two significant decimals: `0.0123` → `1.23%`.
fn percent(fraction: f64) -> String {
    format!("{:.2}%", fraction * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::percentiles::Percentiles;
    use crate::sections::functions_timing::{FunctionTiming, FunctionsTiming};

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
    fn warnings_follow_the_first_line() {
        let mut r = report();
        r.meta.warnings = vec!["metrics server not started: port in use".into()];
        let text = render_table(&r);
        let lines: Vec<&str> = text.lines().take(2).collect();
        assert!(lines[0].starts_with("[hotpath] Profile of demo::main"));
        assert_eq!(lines[1], "[hotpath] warning: metrics server not started: port in use");
        r.functions_timing = None;
        assert!(render_table(&r).ends_with("\n[hotpath] warning: metrics server not started: port in use\n"));
    }

    #[test]
    fn empty_report_says_so() {
        let mut r = report();
        r.functions_timing = None;
        assert!(render_table(&r).starts_with("[hotpath] No measurements recorded from demo::main"));
    }
}
