//! The printed table of the `io` section.

use crate::format::{format_bytes, format_count, format_duration_ns};
use crate::grid::{shown, Table};
use crate::meta::Meta;
use crate::percentiles::percentile_label;

use super::{IoRow, IoSection};

#[derive(Clone, Copy, PartialEq)]
enum Direction {
    Read,
    Write,
}

impl IoSection {
    /// The `io` section: a Reads table and a Writes table, each skipped when empty.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let summary = shown(self.rows.len(), self.total_entries);
        let sampling = if self.time_sampling_rate < 1.0 {
            format!(", durations from {} of operations", sampled(self.time_sampling_rate))
        } else {
            String::new()
        };
        let mut out = format!(
            "io - Byte-level I/O of io! wrappers; Rate = bytes / summed operation time, Inst = instances per row. ({summary}{sampling})\n"
        );
        let tables: Vec<Table> =
            [Direction::Read, Direction::Write].into_iter().filter_map(|d| self.direction_table(d, meta)).collect();
        if tables.is_empty() {
            out.push_str("(wrappers created, no reads or writes yet)\n");
        }
        tables.iter().for_each(|t| out.push_str(&t.render()));
        out
    }

    fn direction_table(&self, direction: Direction, meta: &Meta) -> Option<Table> {
        let rows: Vec<&IoRow> = self
            .rows
            .iter()
            .filter(|r| match direction {
                Direction::Read => r.read.ops + r.read.errors > 0,
                Direction::Write => r.write.ops + r.flush.ops + r.shutdown.ops + r.write_side_errors() > 0,
            })
            .collect();
        if rows.is_empty() {
            return None;
        }
        let count = if direction == Direction::Read { "Reads" } else { "Writes" };
        // Under Callgrind: counts and bytes only (no clock, so no rate and no durations).
        let clock = !meta.untimed();
        let mut header = vec!["Io".to_string(), "Inst".into(), count.into(), "Bytes".into()];
        if clock {
            header.extend(["Rate".to_string(), "Avg".into()]);
            header.extend(meta.percentiles.iter().map(|p| percentile_label(*p).to_uppercase()));
            header.push("Total".into());
        }
        if direction == Direction::Write {
            header.push("Flushes".into());
        }
        header.push("Errors".into());
        let mut table = Table::new(header).names(meta.name_width);
        for row in rows {
            let t = if direction == Direction::Read { &row.read } else { &row.write };
            let timed = t.timed_ops > 0;
            let duration = |ns: u64| if timed { format_duration_ns(ns) } else { "-".into() };
            let rate = t.bytes_per_sec.map_or_else(|| "-".into(), |r| format!("{}/s", format_bytes(r)));
            let mut cells =
                vec![row.name.clone(), format_count(row.instances), format_count(t.ops), format_bytes(t.bytes)];
            if clock {
                cells.extend([rate, duration(t.avg_ns)]);
                cells.extend(
                    meta.percentiles.iter().map(|p| t.percentiles_ns.get(*p).map_or_else(|| "-".into(), duration)),
                );
                cells.push(match (t.estimated_total_ns(), &t.estimate) {
                    (None, _) => "-".into(),
                    (Some(ns), None) => format_duration_ns(ns),
                    (Some(ns), Some(e)) => format!(
                        "≈{} ±{:.1}%",
                        format_duration_ns(ns),
                        crate::Estimate::relative_half_width(ns, e.total_ns_ci95) * 100.0
                    ),
                });
            }
            if direction == Direction::Write {
                cells.push(format_count(row.flush.ops));
                cells.push(format_count(row.write_side_errors()));
            } else {
                cells.push(format_count(t.errors));
            }
            table.row(cells);
        }
        Some(table)
    }
}

/// `0.1` → `"10%"`, `0.005` → `"0.5%"`.
fn sampled(rate: f64) -> String {
    let percent = rate * 100.0;
    if percent.fract() == 0.0 {
        format!("{percent:.0}%")
    } else {
        format!("{percent}%")
    }
}

#[cfg(test)]
mod tests {
    use super::super::{IoControl, IoTransfer};
    use super::*;
    use crate::percentiles::Percentiles;

    fn section() -> IoSection {
        let mut reads = IoRow { name: "data-file".into(), instances: 1, ..IoRow::default() };
        reads.read = IoTransfer {
            ops: 4,
            bytes: 8192,
            timed_ops: 4,
            timed_bytes: 8192,
            timed_ns: 4000,
            avg_ns: 1000,
            percentiles_ns: Percentiles(vec![(50.0, 900), (95.0, 1500)]),
            bytes_per_sec: Some(2_048_000_000),
            ..IoTransfer::default()
        };
        let mut writes = IoRow { name: "gzip".into(), instances: 2, ..IoRow::default() };
        writes.write = IoTransfer { ops: 3, bytes: 300, ..IoTransfer::default() };
        writes.flush = IoControl { ops: 1, errors: 1, ..IoControl::default() };
        writes.shutdown = IoControl { errors: 2, ..IoControl::default() };
        IoSection { total_entries: 2, time_sampling_rate: 0.0, rows: vec![reads, writes] }
    }

    fn meta() -> Meta {
        Meta { percentiles: vec![50.0, 95.0], ..Meta::default() }
    }

    #[test]
    fn stacked_read_and_write_tables() {
        let text = section().table(&meta());
        assert!(text.starts_with("io - "), "{text}");
        assert!(
            text.contains(
                "| Io        | Inst | Reads | Bytes  | Rate     | Avg     | P50    | P95     | Total   | Errors |"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "| data-file | 1    | 4     | 8.0 KB | 1.9 GB/s | 1.00 µs | 900 ns | 1.50 µs | 4.00 µs | 0      |"
            ),
            "{text}"
        );
        // Count-only rows show `-` for every duration; write errors add flush and shutdown errors.
        assert!(
            text.contains("| gzip | 2    | 3      | 300 B | -    | -   | -   | -   | -     | 1       | 3      |"),
            "{text}"
        );
        assert!(!text.contains("| gzip | 2    | 0"), "a row appears only in the tables it has operations for");
    }

    #[test]
    fn a_direction_without_operations_has_no_table() {
        let mut s = section();
        s.rows.truncate(1);
        let text = s.table(&meta());
        assert!(text.contains("| Reads |") && !text.contains("| Writes |"), "{text}");
    }

    #[test]
    fn rows_without_operations_say_so() {
        let s = IoSection {
            total_entries: 1,
            rows: vec![IoRow { instances: 2, ..IoRow::default() }],
            ..IoSection::default()
        };
        let text = s.table(&meta());
        assert!(text.ends_with("(wrappers created, no reads or writes yet)\n"), "{text}");
    }

    #[test]
    fn sampled_totals_are_scaled_up() {
        let t = IoTransfer { ops: 10, timed_ops: 2, timed_ns: 50, ..IoTransfer::default() };
        assert_eq!(t.estimated_total_ns(), Some(250));
        // Under the overhead budget the weighted estimate is the total.
        let weighted = IoTransfer { total_ns: Some(400), ..t };
        assert_eq!(weighted.estimated_total_ns(), Some(400));
        assert_eq!(IoTransfer { ops: 3, ..IoTransfer::default() }.estimated_total_ns(), None);
        assert_eq!(sampled(0.1), "10%");
    }
}
