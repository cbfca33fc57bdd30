//! The printed table of the `sql` section.

use crate::format::{format_count, format_percent};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;
use crate::requests::or_dash;
use crate::stats::DurationStats;

use super::Sql;

impl Sql {
    /// The `sql` table; a Route column appears when some row has one. Source is the
    /// innermost measured function that ran the query (`-` where none is known).
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let route = self.rows.iter().any(|r| r.route.is_some());
        let mut header: Vec<String> = vec!["Query".into(), "Library".into()];
        if route {
            header.push("Route".into());
        }
        header.push("Source".into());
        header.extend(["Calls".to_string(), "Errors".into(), "Rows".into()]);
        header.extend(DurationStats::header("", meta));
        header.extend(DurationStats::total_header(meta));
        if !meta.untimed() {
            header.push("% Total".into());
        }
        let mut table = Table::new(header).names(meta.name_width);
        for row in &self.rows {
            let mut cells = vec![row.query.clone(), row.library.clone()];
            if route {
                cells.push(or_dash(row.route.as_ref()));
            }
            cells.push(or_dash(row.function.as_ref()));
            cells.extend([format_count(row.calls), format_count(row.errors), format_count(row.rows())]);
            cells.extend(row.latency.cells(meta));
            cells.extend(row.latency.total_cell(meta));
            if !meta.untimed() {
                cells.push(format_percent(row.latency.total_ns, self.total_ns));
            }
            table.row(cells);
        }
        let summary = format!("{}, {} calls", shown(self.rows.len(), self.total_queries), format_count(self.calls));
        titled(
            "sql",
            "SQL queries per normalized statement; Rows = returned by reads, affected by writes.",
            &summary,
            &table,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::SqlRow;
    use super::*;

    fn row(query: &str, total_ns: u64) -> SqlRow {
        let mut row =
            SqlRow { name: query.into(), query: query.into(), library: "sqlx".into(), calls: 2, ..SqlRow::default() };
        row.latency.total_ns = total_ns;
        row
    }

    #[test]
    fn rows_source_and_share_of_total() {
        let mut read = row("SELECT name FROM t WHERE id = ?", 300);
        read.rows_returned = 152;
        let mut write = row("UPDATE t SET a = ? RETURNING id", 100);
        (write.rows_returned, write.rows_affected) = (3, 3);
        write.function = Some("app::save".into());
        let text = Sql { total_queries: 2, calls: 4, total_ns: 400, rows: vec![read, write] }.table(&Meta::default());
        assert!(
            text.contains("| Query                           | Library | Source    | Calls | Errors | Rows |"),
            "{text}"
        );
        assert!(
            text.contains("| SELECT name FROM t WHERE id = ? | sqlx    | -         | 2     | 0      | 152  |"),
            "{text}"
        );
        assert!(text.contains("| app::save | 2     | 0      | 3    |"), "{text}");
        assert!(text.contains("| 75.0%   |") && text.contains("| 25.0%   |"), "{text}");
    }

    #[test]
    fn long_queries_keep_their_end_in_the_table() {
        let columns = (0..30).map(|i| format!("c{i}")).collect::<Vec<_>>().join(", ");
        let a = row(&format!("SELECT {columns} FROM t ORDER BY score DESC LIMIT ?"), 2);
        let b = row(&format!("SELECT {columns} FROM t ORDER BY score ASC LIMIT ?"), 1);
        let section = Sql { total_queries: 2, calls: 4, total_ns: 3, rows: vec![a, b] };
        let text = section.table(&Meta { name_width: 50, ..Meta::default() });
        assert!(text.contains("| SELECT c0, c1, c2, … t ORDER BY score DESC LIMIT ? |"), "{text}");
        assert!(text.contains("| SELECT c0, c1, c2, …M t ORDER BY score ASC LIMIT ? |"), "{text}");
        let whole = section.table(&Meta::default());
        assert!(whole.contains(&section.rows[0].query), "0 = whole: {whole}");
    }
}
