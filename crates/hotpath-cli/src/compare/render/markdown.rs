//! GitHub-flavoured markdown for a pull-request comment: a verdict heading, the
//! notable changes in one table, and every compared metric folded in `<details>`.

use super::{lines, result_text, runs_text, section_title, Line};
use crate::compare::diff::Comparison;
use crate::compare::verdict::Verdict;

/// Lines in the folded table; GitHub rejects comments over 65,536 characters.
const MAX_DETAIL_LINES: usize = 400;

pub(crate) fn render(c: &Comparison, all: bool) -> String {
    let regressed = c.summary.regressed_metrics > 0;
    let mut out = String::from("### hotpath performance comparison\n\n");
    out.push_str(if regressed { "**:x: Regression**: " } else { "**:white_check_mark: No regression**: " });
    out.push_str(&result_text(c));
    out.push_str(".\n\n");
    out.push_str(&format!(
        "Base {} ({}) vs head {} ({}). Threshold {}%; timing: {} (α = {}); values are medians over runs.\n",
        code(&c.base.label),
        runs_text(c.base.runs),
        code(&c.head.label),
        runs_text(c.head.runs),
        c.settings.threshold_pct,
        c.settings.test,
        c.settings.alpha
    ));
    for note in &c.notes {
        out.push_str(&format!("\n> **Note:** {}\n", escape(note)));
    }
    let mut notable = Vec::new();
    let mut every = Vec::new();
    for section in &c.sections {
        let title = section_title(&section.name);
        notable.extend(lines(&section.rows, all).0.into_iter().map(|l| (title.clone(), l)));
        every.extend(lines(&section.rows, true).0.into_iter().map(|l| (title.clone(), l)));
    }
    out.push('\n');
    if notable.is_empty() {
        out.push_str(&format!("No change beyond the threshold in {} compared metrics.\n", c.summary.compared_metrics));
    } else {
        table(&mut out, &notable);
    }
    let shown = every.len().min(MAX_DETAIL_LINES);
    out.push_str(&format!("\n<details><summary>All compared metrics ({})</summary>\n\n", c.summary.compared_metrics));
    table(&mut out, &every[..shown]);
    if shown < every.len() {
        out.push_str(&format!("\n{} more lines are in the JSON output (`--format json`).\n", every.len() - shown));
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

/// A code span: function paths hold `<`, `>` and `_` that markdown would eat.
/// A pipe still ends a table cell inside a code span, so it is escaped.
fn code(text: &str) -> String {
    format!("`{}`", text.replace('`', "'").replace('|', "\\|"))
}

fn escape(text: &str) -> String {
    text.replace('|', "\\|").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::super::fixture::comparison;
    use super::*;

    #[test]
    fn headline_changes_and_folded_details() {
        let text = render(&comparison(), false);
        assert!(
            text.starts_with("### hotpath performance comparison\n\n**:x: Regression**: 1 regressed metric"),
            "{text}"
        );
        assert!(
            text.contains(
                "| functions-timing | `app::work<T>` | avg | 1.00 ms | 20.00 ms | +1900% (20.0x) | :red_circle: regressed (p = 0.008) |"
            ),
            "{text}"
        );
        assert!(text.contains("| functions-timing | `app::new` | - | - | - | - | added |"), "{text}");
        let (head, details) = text.split_once("<details>").unwrap();
        assert!(!head.contains("app::steady"), "{text}");
        assert!(details.contains("| `app::steady\\|x` | calls | 10 | 10 | +0.0% | unchanged |"), "{text}");
        assert!(text.ends_with("</details>\n"));
    }
}
