//! Caveats printed above a comparison: what the verdicts can and cannot mean for
//! the runs given, and what the output holds that the reports do not name.

use super::kind::Kind;
use super::samples::RUN_SECTION;
use super::side::Side;
use super::stats::min_p_value;
use super::verdict::Settings;

/// What the `run` pseudo-section is, for the notes and `--help`.
pub(crate) const RUN_NOTE: &str = "section 'run' is no report section: it is the whole run, the wall time from \
     the start of profiling to the report (meta.wall_ns), one row per #[hotpath::main] function";

pub(crate) fn notes(base: &Side, head: &Side, settings: Settings) -> Vec<String> {
    let mut out = Vec::new();
    let threshold = settings.threshold_pct;
    if only_exact(base) && only_exact(head) {
        // Instruction counts only (--valgrind): nothing needs a test, one run says all.
    } else if base.runs == 1 || head.runs == 1 {
        out.push(format!(
            "single run: {} base and {} head run(s), so timings, rates and levels cannot be tested: a change \
             beyond the {threshold}% threshold is 'inconclusive', never 'regressed' (counts and bytes are still \
             compared exactly); compare several runs per side for a tested verdict",
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
    if base.sections.contains_key(RUN_SECTION) || head.sections.contains_key(RUN_SECTION) {
        out.push(RUN_NOTE.to_string());
    }
    let duplicates = base.async_duplicates.max(head.async_duplicates);
    if duplicates > 0 {
        out.push(format!(
            "{duplicates} #[measure] async function(s) appear in both functions_timing and futures; they are \
             compared once, in functions_timing"
        ));
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

/// True when the side has values and none of them needs a statistical test.
fn only_exact(side: &Side) -> bool {
    !side.sections.is_empty()
        && side
            .sections
            .values()
            .all(|s| (0..s.metrics.len() as u32).all(|i| !Kind::of(s.metrics.get(i).unit).is_statistical()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::samples::{RunSamples, Section};

    fn side(runs: usize) -> Side {
        Side::new("x", vec![], vec![RunSamples::default(); runs])
    }

    const S: Settings = Settings { threshold_pct: 10.0, alpha: 0.05, icount_threshold_pct: 1.0 };

    #[test]
    fn says_when_runs_are_too_few_for_the_test() {
        let single = notes(&side(1), &side(3), S);
        assert!(single[0].starts_with("single run: 1 base and 3 head") && single[0].contains("'inconclusive'"));
        let three = notes(&side(3), &side(3), S);
        assert!(
            three[0].contains("smallest possible p-value is 0.100") && three[0].contains("at least 4 runs"),
            "{three:?}"
        );
        assert!(notes(&side(5), &side(5), S).is_empty());
        // Instruction counts alone need no second run.
        let mut run = RunSamples::default();
        let mut icount = Section::default();
        icount.push("app::f", "ir", "ir", hotpath_model::Unit::Instructions, 10.0);
        run.sections.insert("functions_icount".into(), icount);
        let counted = Side::new("x", vec![], vec![run]);
        assert!(notes(&counted, &counted, S).is_empty());
    }

    #[test]
    fn explains_the_run_section_and_async_duplicates() {
        let mut run = RunSamples { async_duplicates: 2, ..RunSamples::default() };
        run.sections.insert(RUN_SECTION.into(), Section::default());
        let with = Side::new("x", vec![], vec![run; 5]);
        let n = notes(&with, &side(5), S);
        assert_eq!(n[0], RUN_NOTE);
        assert!(n[1].starts_with("2 #[measure] async function(s) appear in both"), "{n:?}");
    }
}
