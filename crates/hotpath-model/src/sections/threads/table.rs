//! The printed table of the `threads` section.

use crate::format::{format_bytes, format_percent_value, format_seconds};
use crate::grid::Table;
use crate::meta::Meta;

use super::Threads;

/// `alloc - dealloc` as signed bytes: `-1.2 KB` when a thread frees more than it allocates.
fn format_diff(alloc: u64, dealloc: u64) -> String {
    if alloc >= dealloc {
        format_bytes(alloc - dealloc)
    } else {
        format!("-{}", format_bytes(dealloc - alloc))
    }
}

impl Threads {
    /// The `threads` table, header and columns as the specification shows them.
    pub(crate) fn table(&self, _meta: &Meta) -> String {
        let mut header = format!("threads - Thread CPU and memory statistics. (RSS: {}", format_bytes(self.rss_bytes));
        if let Some(a) = &self.alloc {
            header.push_str(&format!(
                ", Alloc: {}, Dealloc: {}, Diff: {}",
                format_bytes(a.alloc_bytes),
                format_bytes(a.dealloc_bytes),
                format_diff(a.alloc_bytes, a.dealloc_bytes)
            ));
        }
        header.push_str(")\n");
        if let Some(warning) = &self.warning {
            header.push_str(&format!("warning: {warning}\n"));
        }
        let mut columns = vec!["Thread", "Status", "CPU%", "Max%", "CPU User", "CPU Sys", "CPU Total"];
        if self.alloc.is_some() {
            columns.extend(["Alloc", "Dealloc", "Diff"]);
        }
        let mut table = Table::new(columns);
        for row in &self.rows {
            let percent = |p: Option<f64>| p.map_or_else(|| "-".to_string(), format_percent_value);
            let mut cells = vec![
                row.name.clone(),
                row.status.clone(),
                percent(row.cpu_percent),
                percent(row.max_cpu_percent),
                format_seconds(row.cpu_user_ns),
                format_seconds(row.cpu_sys_ns),
                format_seconds(row.cpu_user_ns + row.cpu_sys_ns),
            ];
            if self.alloc.is_some() {
                let (a, d) = (row.alloc_bytes.unwrap_or(0), row.dealloc_bytes.unwrap_or(0));
                cells.extend([format_bytes(a), format_bytes(d), format_diff(a, d)]);
            }
            table.row(cells);
        }
        header + &table.render()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{AllocTotals, ThreadRow};
    use super::*;

    #[test]
    fn renders_like_the_specification() {
        let row = ThreadRow {
            name: "worker-1".into(),
            tid: 12,
            status: "Running".into(),
            cpu_percent: Some(98.2),
            max_cpu_percent: Some(99.0),
            cpu_user_ns: 1_842_000_000,
            cpu_sys_ns: 31_000_000,
            alloc_bytes: Some(12_698),
            dealloc_bytes: Some(12_390),
        };
        let threads = Threads {
            rss_bytes: 8_178_893,
            alloc: Some(AllocTotals { alloc_bytes: 2_202_010, dealloc_bytes: 311_603 }),
            rows: vec![row],
            ..Threads::default()
        };
        let text = threads.table(&Meta::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "threads - Thread CPU and memory statistics. (RSS: 7.8 MB, Alloc: 2.1 MB, Dealloc: 304.3 KB, Diff: 1.8 MB)"
        );
        assert_eq!(
            lines[2],
            "| Thread   | Status  | CPU%  | Max%  | CPU User | CPU Sys | CPU Total | Alloc   | Dealloc | Diff  |"
        );
        assert_eq!(
            lines[4],
            "| worker-1 | Running | 98.2% | 99.0% | 1.842s   | 0.031s  | 1.873s    | 12.4 KB | 12.1 KB | 308 B |"
        );
    }

    #[test]
    fn without_alloc_no_alloc_columns_and_negative_diff_is_signed() {
        let threads = Threads { rss_bytes: 1024, rows: vec![ThreadRow::default()], ..Threads::default() };
        let text = threads.table(&Meta::default());
        assert!(text.starts_with("threads - Thread CPU and memory statistics. (RSS: 1.0 KB)\n"));
        assert!(!text.contains("Alloc"));
        assert!(text.contains("| -    | -    |"), "{text}");
        assert_eq!(format_diff(10, 2058), "-2.0 KB");
    }
}
