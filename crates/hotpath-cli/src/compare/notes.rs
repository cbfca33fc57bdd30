//! Caveats printed above a comparison: what the verdicts can and cannot mean for
//! the runs given.

use super::side::Side;
use super::stats::min_p_value;
use super::verdict::Settings;

pub(crate) fn notes(base: &Side, head: &Side, settings: Settings) -> Vec<String> {
    let mut out = Vec::new();
    let threshold = settings.threshold_pct;
    if base.runs == 1 || head.runs == 1 {
        out.push(format!(
            "single run: {} base and {} head run(s), so timing changes are judged on the {threshold}% \
             threshold alone, without a significance test; compare several runs per side for a tested verdict",
            base.runs, head.runs
        ));
    } else {
        let p = min_p_value(base.runs, head.runs);
        if p > settings.alpha {
            let need = (2..).find(|&n| min_p_value(n, n) <= settings.alpha).unwrap_or(usize::MAX);
            out.push(format!(
                "with {} base and {} head runs the smallest possible p-value is {p:.3}, above alpha = {}: \
                 no timing change can be significant; use at least {need} runs per side",
                base.runs, head.runs, settings.alpha
            ));
        }
    }
    for (which, side) in [("base", base), ("head", head)] {
        for (name, section) in &side.sections {
            if section.truncated {
                out.push(format!(
                    "{which} reports cut {name} to their row limit: rows missing from them are shown as \
                     'outside row limit' (write reports with HOTPATH_LIMIT=0 to compare every row)"
                ));
            }
        }
        let partial = side.sections.values().flat_map(|s| s.rows.values()).filter(|r| r.present < side.runs).count();
        if partial > 0 {
            out.push(format!(
                "{partial} row(s) appear in only some {which} runs; their values come from the runs that have them"
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::samples::RunSamples;

    fn side(runs: usize) -> Side {
        Side::new("x", vec![], vec![RunSamples::default(); runs])
    }

    const S: Settings = Settings { threshold_pct: 10.0, alpha: 0.05 };

    #[test]
    fn says_when_runs_are_too_few_for_the_test() {
        assert!(notes(&side(1), &side(3), S)[0].starts_with("single run: 1 base and 3 head"));
        let three = notes(&side(3), &side(3), S);
        assert!(
            three[0].contains("smallest possible p-value is 0.100") && three[0].contains("at least 4 runs"),
            "{three:?}"
        );
        assert!(notes(&side(5), &side(5), S).is_empty());
    }
}
