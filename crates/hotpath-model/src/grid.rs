//! A plain-text grid in the style of the specification's report tables:
//! `+---+` rules above the header, below it and between rows.

/// Rows of cells under a header, rendered with ASCII borders.
#[derive(Clone, Debug, Default)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with the given column names.
    pub fn new<I: IntoIterator<Item = S>, S: Into<String>>(header: I) -> Self {
        Self { header: header.into_iter().map(Into::into).collect(), rows: Vec::new() }
    }

    /// Appends a row; missing cells render empty, extra cells are ignored.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Renders the grid, each line ending in a newline.
    pub fn render(&self) -> String {
        let widths: Vec<usize> = (0..self.header.len())
            .map(|col| {
                let cells = self.rows.iter().filter_map(|r| r.get(col));
                std::iter::once(&self.header[col]).chain(cells).map(|c| c.chars().count()).max().unwrap_or(0)
            })
            .collect();
        let rule: String = widths.iter().fold(String::from("+"), |mut s, w| {
            s.push_str(&"-".repeat(w + 2));
            s.push('+');
            s
        });
        let line = |cells: &[String]| {
            let mut s = String::from("|");
            for (col, width) in widths.iter().enumerate() {
                let cell = cells.get(col).map_or("", String::as_str);
                let pad = width - cell.chars().count();
                s.push(' ');
                s.push_str(cell);
                s.push_str(&" ".repeat(pad + 1));
                s.push('|');
            }
            s
        };
        let mut out = format!("{rule}\n{}\n{rule}\n", line(&self.header));
        for row in &self.rows {
            out.push_str(&line(row));
            out.push('\n');
            out.push_str(&rule);
            out.push('\n');
        }
        out
    }
}

/// A section as printed: `title - description (summary)`, then its grid.
pub(crate) fn titled(title: &str, description: &str, summary: &str, table: &Table) -> String {
    format!("{title} - {description} ({summary})\n{}", table.render())
}

/// Summary words for a section whose rows may have been cut by the limit.
pub(crate) fn shown(rows: usize, total: usize) -> String {
    if rows < total {
        format!("showing top {rows} of {total}")
    } else {
        format!("{total} total")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_seed_style_grid() {
        let mut t = Table::new(["Thread", "CPU%"]);
        t.row(vec!["main".into(), "6.3%".into()]);
        t.row(vec!["worker-1".into(), "98.2%".into()]);
        let expected = "\
+----------+-------+
| Thread   | CPU%  |
+----------+-------+
| main     | 6.3%  |
+----------+-------+
| worker-1 | 98.2% |
+----------+-------+
";
        assert_eq!(t.render(), expected);
    }

    #[test]
    fn widths_count_characters_not_bytes() {
        let mut t = Table::new(["Avg"]);
        t.row(vec!["1.00 µs".into()]);
        assert!(t.render().contains("| 1.00 µs |"));
    }
}
