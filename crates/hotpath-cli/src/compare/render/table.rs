//! The terminal form: a header naming both sides and the method, then one grid per
//! section in the style of the report tables, then the result line.

use hotpath_model::Table;

use super::{lines, name_header, result_text, runs_text, section_title};
use crate::compare::diff::Comparison;
use crate::compare::verdict::Verdict;

pub(crate) fn render(c: &Comparison, all: bool) -> String {
    let mut out = String::from("hotpath compare\n");
    out.push_str(&format!("  base: {}, {}\n", c.base.label, runs_text(c.base.runs)));
    out.push_str(&format!("  head: {}, {}\n", c.head.label, runs_text(c.head.runs)));
    out.push_str(&format!(
        "  threshold {}%; timing: {} (alpha {}); values are medians over runs\n",
        c.settings.threshold_pct, c.settings.test, c.settings.alpha
    ));
    for note in &c.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    for section in &c.sections {
        let (lines, hidden) = lines(&section.rows, all);
        let title = section_title(&section.name);
        out.push('\n');
        if lines.is_empty() {
            out.push_str(&format!(
                "{title} - {} row(s), no change beyond the threshold ({hidden} metrics)\n",
                section.rows.len()
            ));
            continue;
        }
        out.push_str(&format!("{title} - {} row(s)\n", section.rows.len()));
        let mut table = Table::new([name_header(&section.name), "Metric", "Base", "Head", "Change", "Verdict"]);
        for l in lines {
            let verdict = match l.verdict {
                // Upper case so that a regression stands out in a long log.
                Verdict::Regressed => l.verdict_text.replacen("regressed", "REGRESSED", 1),
                _ => l.verdict_text,
            };
            table.row(vec![l.name, l.metric, l.base, l.head, l.change, verdict]);
        }
        out.push_str(&table.render());
        if hidden > 0 {
            out.push_str(&format!("({hidden} unchanged or within-threshold metrics not shown; --all shows them)\n"));
        }
    }
    let status = if c.summary.regressed_metrics > 0 { "REGRESSION" } else { "no regression" };
    out.push_str(&format!("\nResult: {status}: {}\n", result_text(c)));
    out
}

#[cfg(test)]
mod tests {
    use super::super::fixture::comparison;
    use super::*;

    #[test]
    fn shows_changes_and_hides_unchanged_metrics() {
        let text = render(&comparison(), false);
        assert!(text.contains("  base: main, 5 runs\n  head: HEAD, 5 runs\n"), "{text}");
        assert!(
            text.contains("| app::work<T> | avg    | 1.00 ms | 20.00 ms | +1900% (20.0x) | REGRESSED (p = 0.008) |"),
            "{text}"
        );
        assert!(text.contains("| app::new     | -      | -       | -        | -              | added "), "{text}");
        assert!(text.contains("| app::old     | -      | -       | -        | -              | removed "), "{text}");
        assert!(!text.contains("app::steady"), "unchanged rows are hidden:\n{text}");
        assert!(text.contains("(3 unchanged or within-threshold metrics not shown; --all shows them)"), "{text}");
        assert!(text.ends_with(
            "Result: REGRESSION: 1 regressed metric in 1 row; 0 improved; 0 inconclusive; 1 added, 1 removed (of 4 compared metrics)\n"
        ));
    }

    #[test]
    fn all_shows_every_metric() {
        let text = render(&comparison(), true);
        assert!(text.contains("| app::steady|x | calls  | 10      | 10       | +0.0%          | unchanged "), "{text}");
        assert!(!text.contains("not shown"));
    }
}
