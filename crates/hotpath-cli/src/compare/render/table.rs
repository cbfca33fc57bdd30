//! The terminal form: a header naming both sides and the method, then one grid per
//! section in the style of the report tables, then the result line. Everything
//! taken from the reports or the command line is escaped for the terminal.

use hotpath_model::Table;

use super::escape::terminal;
use super::lines::{lines, name_header, result_text, runs_text, section_title, settings_text};
use crate::compare::diff::Comparison;
use crate::compare::verdict::Verdict;

pub(crate) fn render(c: &Comparison<'_>, all: bool) -> String {
    let mut out = String::from("hotpath compare\n");
    out.push_str(&format!("  base: {}, {}\n", terminal(&c.base.label), runs_text(c.base.runs)));
    out.push_str(&format!("  head: {}, {}\n", terminal(&c.head.label), runs_text(c.head.runs)));
    out.push_str(&format!("  {}; values are medians over runs\n", settings_text(c)));
    for note in &c.notes {
        out.push_str(&format!("note: {}\n", terminal(note)));
    }
    for section in c.sections() {
        let shown = lines(&section, all, usize::MAX);
        let title = terminal(&section_title(section.name));
        let rows = section.row_count();
        out.push('\n');
        if shown.lines.is_empty() {
            out.push_str(&format!(
                "{title} - {rows} row(s), no change beyond the threshold ({} metrics)\n",
                shown.hidden
            ));
            continue;
        }
        out.push_str(&format!("{title} - {rows} row(s)\n"));
        let mut table = Table::new([name_header(section.name), "Metric", "Base", "Head", "Change", "Verdict"]);
        for l in shown.lines {
            let verdict = match l.verdict {
                // Upper case so that a regression stands out in a long log.
                Verdict::Regressed => l.verdict_text.replacen("regressed", "REGRESSED", 1),
                _ => l.verdict_text,
            };
            table.row(vec![terminal(&l.name), terminal(&l.metric), l.base, l.head, l.change, verdict]);
        }
        out.push_str(&table.render());
        if shown.hidden > 0 {
            out.push_str(&format!(
                "({} unchanged or within-threshold metrics not shown; --all shows them)\n",
                shown.hidden
            ));
        }
    }
    if let Some(policy) = c.policy {
        out.push_str(&super::budgets::table(&c.budgets, &policy.path.display().to_string()));
    }
    let status = match (c.summary.regressed_metrics > 0, c.summary.budgets_failed > 0) {
        (true, _) => "REGRESSION",
        (false, true) => "BUDGET FAILED",
        (false, false) => "no regression",
    };
    out.push_str(&format!("\nResult: {status}: {}\n", result_text(c)));
    out
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{comparison, hostile, sides};
    use super::*;

    #[test]
    fn shows_changes_and_hides_unchanged_metrics() {
        let sides = sides();
        let text = render(&comparison(&sides), false);
        assert!(text.contains("  base: main, 5 runs\n  head: HEAD, 5 runs\n"), "{text}");
        assert!(
            text.contains("| app::work<T> | avg    | 1.00 ms | 20.00 ms | +1900% (20.0x) | REGRESSED (p = 0.008, adjusted 0.016) |"),
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
        let sides = sides();
        let text = render(&comparison(&sides), true);
        assert!(text.contains("| app::steady|x | calls  | 10      | 10       | +0.0%          | unchanged "), "{text}");
        assert!(!text.contains("not shown"));
    }

    #[test]
    fn labels_cannot_steer_the_terminal_and_rates_have_units() {
        let sides = hostile();
        let text = render(&comparison(&sides), true);
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{text:?}");
        assert!(text.contains("\\u{1b}]0;pwned\\u{7}\\u{1b}[2J"), "{text}");
        assert!(text.contains("| evil\\n| fake | row |"), "{text}");
        assert!(text.contains("base: main\\n# title, 1 run"), "{text}");
        assert!(text.contains("custom|sec\\u{1b}[1m - 3 row(s)"), "{text}");
        // Every table line is one row: no raw newline split a cell.
        assert!(text.lines().filter(|l| l.starts_with("| ")).all(|l| l.ends_with('|')), "{text}");
        let squashed: String = text.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
        assert!(
            squashed.contains("| items_per_sec | 16.31 M/s | 1.00 M/s | -93.9% | inconclusive (single run) |"),
            "{text}"
        );
        assert!(!text.contains("REGRESSED (single"), "{text}");
        assert!(squashed.contains("| alloc_bytes | 4.0 KB | 8.0 KB | +100% (2.0x) | REGRESSED (exact) |"), "{text}");
    }
}
