//! The printed table of the `debug` section: one sub-table per macro.

use crate::format::{format_count, format_duration_ns};
use crate::grid::{cut_middle, shown, Table};
use crate::meta::Meta;

use super::{DebugRow, DebugTrackers, GaugeRow};

/// Values in a gauge's sparkline.
const TREND_POINTS: usize = 16;

impl DebugTrackers {
    /// `dbg!`, `val!` and `gauge!` as three stacked tables; a kind without rows is left out.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let ago = |at_ns: u64| match meta.wall_ns.saturating_sub(at_ns) {
            0 => "now".to_string(),
            ns => format!("{} ago", format_duration_ns(ns)),
        };
        let names = meta.name_width;
        let mut dbg = Table::new(["Expression", "Source", "Calls", "Value", "Thread", "Last"]).names(names);
        let mut val = Table::new(["Key", "Updates", "Value", "Source", "Thread", "Last"]).names(names);
        let mut gauge = Table::new(["Key", "Current", "Min", "Max", "Updates", "Trend", "Last"]).names(names);
        // Values as kept (`HOTPATH_MAX_LOG_LEN`), on one line.
        let value = |text: &str| cut_middle(&one_line(text), self.max_log_len);
        let (mut dbgs, mut vals, mut gauges) = (0, 0, 0);
        for row in &self.rows {
            match row {
                DebugRow::Dbg(r) => {
                    dbgs += 1;
                    dbg.row(vec![
                        one_line(&r.name),
                        format!("{}:{}:{}", r.file, r.line, r.column),
                        format_count(r.count),
                        value(&r.value),
                        r.thread.clone(),
                        ago(r.last_at_ns),
                    ]);
                }
                DebugRow::Val(r) => {
                    vals += 1;
                    val.row(vec![
                        one_line(&r.name),
                        format_count(r.count),
                        value(&r.value),
                        format!("{}:{}", r.file, r.line),
                        r.thread.clone(),
                        ago(r.last_at_ns),
                    ]);
                }
                DebugRow::Gauge(r) => {
                    gauges += 1;
                    gauge.row(vec![
                        one_line(&r.name),
                        number(r.current),
                        number(r.min),
                        number(r.max),
                        format_count(r.updates),
                        sparkline(r),
                        ago(r.last_at_ns),
                    ]);
                }
            }
        }
        let summary = shown(self.rows.len(), self.total_rows);
        let mut out =
            format!("debug - Debug trackers: dbg! by call site, val! and gauge! by key, last values. ({summary})\n");
        let mut logged = Table::new(["Section", "Row", "Logged", "Last value", "Last"]);
        for r in &self.logged {
            logged.row(vec![
                r.section.clone(),
                one_line(&r.name),
                format_count(r.total),
                value(&r.value),
                ago(r.last_at_ns),
            ]);
        }
        let tables = [("dbg!", dbgs, dbg), ("val!", vals, val), ("gauge!", gauges, gauge)];
        for (title, count, table) in tables.into_iter().chain([("log = true", self.logged.len(), logged)]) {
            if count > 0 {
                out.push_str(title);
                out.push('\n');
                out.push_str(&table.render());
            }
        }
        out
    }
}

/// `text` on one line: control characters as spaces.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// `12`, `0.5`, `-3.25`, `NaN`, `inf` (Rust's shortest round-trip form).
fn number(v: f64) -> String {
    format!("{v}")
}

/// The last values as block characters, scaled between their own minimum and maximum.
fn sparkline(row: &GaugeRow) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let points = &row.history[row.history.len().saturating_sub(TREND_POINTS)..];
    let finite = points.iter().copied().filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    points
        .iter()
        .map(|v| match v {
            v if !v.is_finite() => ' ',
            _ if hi <= lo => BARS[3],
            v => BARS[(((v - lo) / (hi - lo)) * 7.0).round() as usize],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sections::debug::{DbgRow, ValRow};

    fn section() -> DebugTrackers {
        let dbg = DbgRow {
            id: 0,
            name: "x * 2".into(),
            file: "src/main.rs".into(),
            line: 7,
            column: 13,
            count: 1234,
            value: "line one\nline two".into(),
            last_at_ns: 500_000_000,
            thread: "main".into(),
            ..DbgRow::default()
        };
        let val = ValRow {
            id: 0,
            name: "state".into(),
            count: 2,
            value: "x".repeat(100),
            file: "src/main.rs".into(),
            line: 9,
            thread: "worker".into(),
            last_at_ns: 1_000_000_000,
            ..ValRow::default()
        };
        let gauge = GaugeRow {
            id: 0,
            name: "queue".into(),
            updates: 3,
            current: 12.0,
            min: 10.0,
            max: 15.0,
            history: vec![10.0, 15.0, 12.0],
            last_at_ns: 1_000_000_000,
            ..GaugeRow::default()
        };
        DebugTrackers {
            total_rows: 3,
            rows: vec![DebugRow::Dbg(dbg), DebugRow::Val(val), DebugRow::Gauge(gauge)],
            ..DebugTrackers::default()
        }
    }

    #[test]
    fn one_table_per_kind_with_flat_cells() {
        let meta = Meta { wall_ns: 2_000_000_000, ..Meta::default() };
        let text = section().table(&meta);
        assert!(text.starts_with("debug - Debug trackers"), "{text}");
        let titles: Vec<&str> = text.lines().filter(|l| l.ends_with('!')).collect();
        assert_eq!(titles, ["dbg!", "val!", "gauge!"]);
        assert!(
            text.contains("| x * 2      | src/main.rs:7:13 | 1,234 | line one line two | main   | 1.50 s ago |"),
            "{text}"
        );
        assert!(text.contains(&format!("| {} |", "x".repeat(100))), "values whole, as kept: {text}");
        assert!(text.contains("| queue | 12      | 10  | 15  | 3       | ▁█▄   | 1.00 s ago |"), "{text}");
    }

    #[test]
    fn values_follow_max_log_len_and_names_the_name_width() {
        let mut s = section();
        s.max_log_len = 40;
        if let DebugRow::Val(v) = &mut s.rows[1] {
            v.value = format!("{}{}", "a".repeat(60), "END");
            v.name = format!("{}tail", "k".repeat(30));
        }
        let text = s.table(&Meta { name_width: 10, ..Meta::default() });
        assert!(text.contains(&format!("| {}…{}END |", "a".repeat(15), "a".repeat(21))), "{text}");
        assert!(text.contains("| kkk…kktail |"), "{text}");
    }

    #[test]
    fn logged_rows_of_other_sections_have_their_table() {
        let mut s = section();
        let row = crate::sections::debug::LoggedRow {
            section: "functions_timing".into(),
            name: "app::parse".into(),
            total: 1500,
            kept: 50,
            value: "Ok(7)".into(),
            last_at_ns: 1_500_000_000,
            ..Default::default()
        };
        s.logged.push(row);
        let text = s.table(&Meta { wall_ns: 2_000_000_000, ..Meta::default() });
        assert!(text.contains("\nlog = true\n"), "{text}");
        assert!(text.contains("| functions_timing | app::parse | 1,500  | Ok(7)      | 500.00 ms ago |"), "{text}");
        assert!(!section().table(&Meta::default()).contains("log = true"), "no table without logged rows");
    }

    #[test]
    fn kinds_without_rows_are_left_out() {
        let mut s = section();
        s.rows.retain(|r| matches!(r, DebugRow::Gauge(_)));
        let text = s.table(&Meta::default());
        assert!(!text.contains("\ndbg!\n") && !text.contains("\nval!\n") && text.contains("\ngauge!\n"), "{text}");
        assert!(text.contains("(1 of 3") || text.contains("showing top 1 of 3"), "{text}");
    }
}
