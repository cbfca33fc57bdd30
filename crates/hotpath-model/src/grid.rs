//! A plain-text grid in the style of the specification's report tables:
//! `+---+` rules above the header, below it and between rows.

/// Rows of cells under a header, rendered with ASCII borders.
#[derive(Clone, Debug, Default)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// Characters of a first-column (name) cell; 0 = whole.
    name_width: usize,
}

impl Table {
    /// A table with the given column names.
    pub fn new<I: IntoIterator<Item = S>, S: Into<String>>(header: I) -> Self {
        Self { header: header.into_iter().map(Into::into).collect(), rows: Vec::new(), name_width: 0 }
    }

    /// Cuts the first column's cells (the row names) to `width` characters in their
    /// middle (`HOTPATH_NAME_WIDTH`, 0 = whole); see [`cut_middle`].
    pub(crate) fn names(mut self, width: usize) -> Self {
        self.name_width = width;
        self
    }

    /// Appends a row; missing cells render empty, extra cells are ignored. Control
    /// characters in cells are shown escaped, so a label cannot break the table or
    /// steer the terminal.
    pub fn row(&mut self, cells: Vec<String>) {
        let width = self.name_width;
        let cells = cells.iter().enumerate().map(|(i, c)| if i == 0 { cut_middle(&clean(c), width) } else { clean(c) });
        self.rows.push(cells.collect());
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

/// `text` within `width` characters (0 = whole): its start and its end around `…`.
/// The end is the larger part, since that is where two rows of one table differ
/// most often (a query's `WHERE`/`ORDER BY`, a path's last segment, a capped query's
/// hash); what is cut is in the JSON whole.
pub(crate) fn cut_middle(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if width == 0 || count <= width {
        return text.to_string();
    }
    let kept = width.saturating_sub(1);
    let head = kept * 2 / 5;
    let tail = kept - head;
    let mut out: String = text.chars().take(head).collect();
    out.push('…');
    out.extend(text.chars().skip(count - tail));
    out
}

/// `text` with control characters (newlines, ESC, C1 codes) and bidirectional
/// overrides shown as escapes (`\n`, `\u{1b}`): what a label may contain, never
/// what the terminal receives.
pub(crate) fn clean(text: &str) -> String {
    if !text.chars().any(needs_escape) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

/// The printed report without the rule between two data rows: one line per row.
pub(crate) fn compact(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    let mut rows_in_table = 0;
    for (i, line) in lines.iter().enumerate() {
        let is_row = line.starts_with('|');
        let is_rule = line.starts_with("+-");
        let next_is_row = lines.get(i + 1).is_some_and(|l| l.starts_with('|'));
        if is_rule && rows_in_table >= 2 && next_is_row {
            continue;
        }
        rows_in_table = if is_row {
            rows_in_table + 1
        } else if is_rule {
            rows_in_table
        } else {
            0
        };
        out.push_str(line);
        out.push('\n');
    }
    out
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
    fn labels_cannot_break_the_table_or_steer_the_terminal() {
        let mut t = Table::new(["Name"]);
        t.row(vec!["a\nb\u{1b}[31m<script>|x\u{202e}".into()]);
        let text = t.render();
        assert!(text.contains("| a\\nb\\u{1b}[31m<script>|x\\u{202e} |"), "{text}");
        assert_eq!(text.lines().count(), 5);
    }

    #[test]
    fn compact_drops_rules_between_rows_only() {
        let mut t = Table::new(["A"]);
        t.row(vec!["1".into()]);
        t.row(vec!["2".into()]);
        t.row(vec!["3".into()]);
        let compact = compact(&format!("title\n{}", t.render()));
        assert_eq!(compact, "title\n+---+\n| A |\n+---+\n| 1 |\n| 2 |\n| 3 |\n+---+\n");
    }

    #[test]
    fn names_are_cut_in_the_middle_keeping_the_end() {
        let a = "SELECT id, name, email, created_at FROM users WHERE active = ? ORDER BY score DESC LIMIT ?";
        let b = "SELECT id, name, email, created_at FROM users WHERE active = ? ORDER BY score ASC LIMIT ?";
        let (ca, cb) = (cut_middle(a, 40), cut_middle(b, 40));
        assert_eq!(ca.chars().count(), 40);
        assert_eq!(ca, "SELECT id, name…ER BY score DESC LIMIT ?");
        assert_ne!(ca, cb);
        assert_eq!(cut_middle(a, 0), a);
        assert_eq!(cut_middle("é".repeat(50).as_str(), 10).chars().count(), 10);
        assert_eq!(cut_middle("short", 10), "short");
        let mut t = Table::new(["Query", "Calls"]).names(12);
        t.row(vec![a.into(), "1234567890123456789".into()]);
        let text = t.render();
        assert!(text.contains("| SELE…LIMIT ? | 1234567890123456789 |"), "{text}");
    }

    #[test]
    fn widths_count_characters_not_bytes() {
        let mut t = Table::new(["Avg"]);
        t.row(vec!["1.00 µs".into()]);
        assert!(t.render().contains("| 1.00 µs |"));
    }
}
