//! Budget results (`policy/budget.rs`) in the table and markdown formats, after a
//! comparison or alone (one report checked against its budgets).

use hotpath_model::Table;

use super::escape::{code, markdown as escape, terminal};
use crate::compare::policy::budget::Checked;

fn result(c: &Checked) -> String {
    match (&c.problem, c.passed) {
        (Some(problem), _) => format!("failed: {problem}"),
        (None, true) => "passed".into(),
        (None, false) => "FAILED".into(),
    }
}

/// `3 budgets checked, 1 failed`.
pub(crate) fn summary(checked: &[Checked]) -> String {
    let failed = checked.iter().filter(|c| !c.passed).count();
    format!("{} budget{} checked, {failed} failed", checked.len(), if checked.len() == 1 { "" } else { "s" })
}

/// The terminal table of budgets (empty when there are none).
pub(crate) fn table(checked: &[Checked], policy: &str) -> String {
    if checked.is_empty() {
        return String::new();
    }
    let mut out = format!("\nbudgets ({}) - {}\n", terminal(policy), summary(checked));
    let mut t = Table::new(["Name", "Section", "Budget", "Value", "Result"]);
    for c in checked {
        t.row(vec![
            terminal(&c.row),
            c.section.as_deref().map_or_else(|| "-".into(), terminal),
            terminal(&c.budget),
            c.value.clone().unwrap_or_else(|| "-".into()),
            terminal(&result(c)),
        ]);
    }
    out.push_str(&t.render());
    out
}

/// The markdown table of budgets (empty when there are none).
pub(crate) fn markdown(checked: &[Checked], policy: &str) -> String {
    if checked.is_empty() {
        return String::new();
    }
    let mut out = format!("\n**Budgets** ({}): {}.\n\n", code(policy), summary(checked));
    out.push_str("| Name | Section | Budget | Value | Result |\n|---|---|---|---:|---|\n");
    for c in checked {
        let mark = if c.passed { ":white_check_mark:" } else { ":x:" };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {mark} {} |\n",
            code(&c.row),
            escape(c.section.as_deref().unwrap_or("-")),
            code(&c.budget),
            escape(c.value.as_deref().unwrap_or("-")),
            escape(&result(c))
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(passed: bool, problem: Option<&str>) -> Checked {
        Checked {
            row: "app::f".into(),
            budget: "p99 < 2ms".into(),
            section: Some("functions_timing".into()),
            value: problem.is_none().then(|| "3.00 ms".into()),
            passed,
            problem: problem.map(Into::into),
        }
    }

    #[test]
    fn failures_stand_out_in_both_formats() {
        let list = [checked(true, None), checked(false, None), checked(false, Some("no row matching \"x\""))];
        let text = table(&list, "hotpath/policy.toml");
        assert!(text.contains("budgets (hotpath/policy.toml) - 3 budgets checked, 2 failed"), "{text}");
        assert!(text.contains("| FAILED ") && text.contains("| passed ") && text.contains("failed: no row"), "{text}");
        let md = markdown(&list, "p.toml");
        assert!(md.contains("| `app::f` | functions\\_timing | `p99 < 2ms` | 3.00 ms | :x: FAILED |"), "{md}");
        assert!(table(&[], "p").is_empty() && markdown(&[], "p").is_empty());
    }
}
