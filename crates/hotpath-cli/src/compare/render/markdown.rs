//! GitHub-flavoured markdown for a pull-request comment: a verdict heading, the
//! notable changes in one table, and every compared metric folded in `<details>`.
//! Names are code spans and other text is escaped (`escape.rs`), so that no label
//! can add rows, HTML or formatting to the comment.

use super::escape::{code, markdown as escape};
use super::lines::{lines, result_text, runs_text, section_title, settings_text, Line};
use crate::compare::diff::Comparison;
use crate::compare::verdict::Verdict;

/// Lines in the folded table; GitHub rejects comments over 65,536 characters.
const MAX_DETAIL_LINES: usize = 400;

pub(crate) fn render(c: &Comparison<'_>, all: bool) -> String {
    let mut out = String::from("### hotpath performance comparison\n\n");
    out.push_str(match (c.summary.regressed_metrics > 0, c.summary.budgets_failed > 0) {
        (true, _) => "**:x: Regression**: ",
        (false, true) => "**:x: Budget failed**: ",
        (false, false) => "**:white_check_mark: No regression**: ",
    });
    out.push_str(&result_text(c));
    out.push_str(".\n\n");
    out.push_str(&format!(
        "Base {} ({}) vs head {} ({}). {}; values are medians over runs.\n",
        code(&c.base.label),
        runs_text(c.base.runs),
        code(&c.head.label),
        runs_text(c.head.runs),
        settings_text(c),
    ));
    for note in &c.notes {
        out.push_str(&format!("\n> **Note:** {}\n", escape(note)));
    }
    if let Some(policy) = c.policy {
        out.push_str(&super::budgets::markdown(&c.budgets, &policy.path.display().to_string()));
    }
    let mut notable = Vec::new();
    let mut every = Vec::new();
    let mut more = 0;
    for section in c.sections() {
        let title = escape(&section_title(section.name));
        notable.extend(lines(&section, all, usize::MAX).lines.into_iter().map(|l| (title.clone(), l)));
        let room = MAX_DETAIL_LINES.saturating_sub(every.len());
        let detail = lines(&section, true, room);
        more += detail.more;
        every.extend(detail.lines.into_iter().map(|l| (title.clone(), l)));
    }
    out.push('\n');
    if notable.is_empty() {
        out.push_str(&format!("No change beyond the threshold in {} compared metrics.\n", c.summary.compared_metrics));
    } else {
        table(&mut out, &notable);
    }
    out.push_str(&format!("\n<details><summary>All compared metrics ({})</summary>\n\n", c.summary.compared_metrics));
    table(&mut out, &every);
    if more > 0 {
        out.push_str(&format!("\n{more} more lines are in the JSON output (`--format json`).\n"));
    }
    out.push_str("\n</details>\n");
    out
}

fn table(out: &mut String, lines: &[(String, Line)]) {
    out.push_str("| Section | Name | Metric | Base | Head | Change | Verdict |\n");
    out.push_str("|---|---|---|---:|---:|---:|---|\n");
    for (section, l) in lines {
        let mark = match l.verdict {
            Verdict::Regressed => ":red_circle: ",
            Verdict::Improved => ":green_circle: ",
            _ => "",
        };
        out.push_str(&format!(
            "| {section} | {} | {} | {} | {} | {} | {mark}{} |\n",
            code(&l.name),
            escape(&l.metric),
            l.base,
            l.head,
            l.change,
            escape(&l.verdict_text)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{comparison, hostile, sides};
    use super::*;

    #[test]
    fn headline_changes_and_folded_details() {
        let sides = sides();
        let text = render(&comparison(&sides), false);
        assert!(
            text.starts_with("### hotpath performance comparison\n\n**:x: Regression**: 1 regressed metric"),
            "{text}"
        );
        assert!(
            text.contains(
                "| functions-timing | `app::work<T>` | avg | 1.00 ms | 20.00 ms | +1900% (20.0x) | :red_circle: regressed (p = 0.008, adjusted 0.016) |"
            ),
            "{text}"
        );
        assert!(text.contains("| functions-timing | `app::new` | - | - | - | - | added |"), "{text}");
        let (head, details) = text.split_once("<details>").unwrap();
        assert!(!head.contains("app::steady"), "{text}");
        assert!(details.contains("| `app::steady\\|x` | calls | 10 | 10 | +0.0% | unchanged |"), "{text}");
        assert!(text.ends_with("</details>\n"));
    }

    #[test]
    fn labels_cannot_break_the_table_or_inject_html() {
        let sides = hostile();
        let text = render(&comparison(&sides), false);
        assert!(!text.contains('\u{1b}'), "{text}");
        // HTML only inside code spans, which GitHub shows as text.
        assert_eq!(text.matches("<script>").count(), text.matches("`<script>alert(1)</script>`").count(), "{text}");
        // Every table line has the table's seven cells: no label added a row or a cell.
        for line in text.lines().filter(|l| l.starts_with('|')) {
            let cells = line.replace("\\|", "").matches('|').count();
            assert_eq!(cells, 8, "{line}");
        }
        assert!(text.contains("| `evil\\n\\| fake \\| row \\|` | alloc\\_bytes |"), "{text}");
        assert!(text.contains("Base `main\\n# title` (1 run)"), "{text}");
        assert!(text.contains("| custom\\|sec\\u{1b}\\[1m |"), "{text}");
    }
}
