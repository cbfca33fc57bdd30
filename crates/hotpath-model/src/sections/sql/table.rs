//! The printed table of the `sql` section.

use crate::format::format_count;
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;
use crate::requests::or_dash;
use crate::stats::DurationStats;

use super::Sql;

/// Longer queries are cut (with `...`) in the table; JSON keeps them whole.
const QUERY_WIDTH: usize = 60;

impl Sql {
    /// The `sql` table; Route and Function columns appear when some row has them.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let route = self.rows.iter().any(|r| r.route.is_some());
        let function = self.rows.iter().any(|r| r.function.is_some());
        let mut header: Vec<String> = vec!["Query".into(), "Library".into()];
        if route {
            header.push("Route".into());
        }
        if function {
            header.push("Function".into());
        }
        header.extend(["Calls".to_string(), "Errors".into(), "Rows".into()]);
        header.extend(DurationStats::header("", meta));
        header.extend(DurationStats::total_header(meta));
        let mut table = Table::new(header);
        for row in &self.rows {
            let mut cells = vec![cut(&row.query), row.library.clone()];
            if route {
                cells.push(or_dash(row.route.as_ref()));
            }
            if function {
                cells.push(or_dash(row.function.as_ref()));
            }
            cells.extend([
                format_count(row.calls),
                format_count(row.errors),
                format_count(row.rows_returned + row.rows_affected),
            ]);
            cells.extend(row.latency.cells(meta));
            cells.extend(row.latency.total_cell(meta));
            table.row(cells);
        }
        let summary = format!("{}, {} calls", shown(self.rows.len(), self.total_queries), format_count(self.calls));
        titled("sql", "SQL queries per normalized statement; Rows = returned + affected.", &summary, &table)
    }
}

fn cut(query: &str) -> String {
    if query.chars().count() <= QUERY_WIDTH {
        return query.to_string();
    }
    let mut out: String = query.chars().take(QUERY_WIDTH - 3).collect();
    out.push_str("...");
    out
}

#[cfg(test)]
mod tests {
    use super::super::SqlRow;
    use super::*;

    #[test]
    fn long_queries_are_cut_in_the_table_only() {
        let query =
            format!("SELECT {} FROM t WHERE id = ?", (0..30).map(|i| format!("c{i}")).collect::<Vec<_>>().join(", "));
        let row = SqlRow {
            name: query.clone(),
            query,
            library: "sqlx".into(),
            calls: 2,
            rows_returned: 2,
            ..SqlRow::default()
        };
        let text = Sql { total_queries: 1, calls: 2, rows: vec![row] }.table(&Meta::default());
        assert!(
            text.contains(
                "| SELECT c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, ... | sqlx    | 2     | 0      | 2    |"
            ),
            "{text}"
        );
        assert_eq!(cut("é".repeat(70).as_str()).chars().count(), QUERY_WIDTH);
    }
}
