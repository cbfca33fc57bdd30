//! Caveats printed above a comparison: what the verdicts can and cannot mean for
//! the runs given, and what the output holds that the reports do not name.

use hotpath_model::Judging;

use super::family::{runs_needed, ErrorControl};
use super::kind::Kind;
use super::samples::RUN_SECTION;
use super::side::Side;
use super::stats::min_p_value;
use super::verdict::Settings;

/// What the `run` pseudo-section is, for the notes and `--help`.
pub(crate) const RUN_NOTE: &str = "section 'run' is no report section: it is the whole run, the wall time from \
     the start of profiling to the report (meta.wall_ns), one row per #[hotpath::main] function";

/// The notes for sides `base` and `head`, of which `tests` metrics were tested.
pub(crate) fn notes(base: &Side, head: &Side, settings: Settings, tests: usize) -> Vec<String> {
    let mut out = Vec::new();
    let threshold = settings.threshold_pct;
    let control = settings.control;
    let adjusted = |tests: usize, what: &str| match control {
        ErrorControl::None => format!("alpha = {}", settings.alpha),
        _ => format!("alpha = {} after {} over {tests} {what} metrics", settings.alpha, control.name()),
    };
    if only_exact(base) && only_exact(head) {
        // Instruction counts only (--valgrind): nothing needs a test, one run says all.
    } else if base.runs == 1 || head.runs == 1 {
        let candidates = statistical_metrics(head).max(1);
        let need = runs_needed(settings.alpha, control, candidates);
        out.push(format!(
            "single run: {} base and {} head run(s), so timings and other statistical figures cannot be tested: a \
             change beyond the {threshold}% minimum effect is 'inconclusive', never 'regressed' (exact figures are \
             still compared exactly); for one change to reach significance at {} it takes {need} runs per side",
            base.runs,
            head.runs,
            adjusted(candidates, "statistical")
        ));
    } else if tests > 0 {
        let p = min_p_value(base.runs, head.runs);
        let level = match control {
            ErrorControl::None => settings.alpha,
            _ => settings.alpha / tests as f64,
        };
        if p > level {
            let need = runs_needed(settings.alpha, control, tests);
            out.push(format!(
                "with {} base and {} head runs the smallest possible p-value is {p:.3}: no single change can be \
                 significant at {}; use at least {need} runs per side",
                base.runs,
                head.runs,
                adjusted(tests, "tested")
            ));
        }
    }
    for (which, side) in [("base", base), ("head", head)] {
        if side.callgrind_runs > 0 {
            out.push(format!(
                "{} {which} report(s) come from runs under Callgrind: their timings mean nothing there and are left \
                 out; instruction counts are compared",
                side.callgrind_runs
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

/// Statistical metrics of one side's rows (what a test of several runs would test).
fn statistical_metrics(side: &Side) -> usize {
    side.sections
        .values()
        .map(|s| {
            let statistical: Vec<bool> =
                (0..s.metrics.len() as u32).map(|i| s.metrics.get(i).judging() == Judging::Statistical).collect();
            s.rows.values().map(|r| r.series().filter(|(m, _)| statistical[*m as usize]).count()).sum::<usize>()
        })
        .sum()
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

    const S: Settings = Settings {
        threshold_pct: 10.0,
        alpha: 0.05,
        icount_threshold_pct: 1.0,
        noise_floor_ns: 0.0,
        control: ErrorControl::Holm,
    };

    #[test]
    fn says_when_runs_are_too_few_for_the_test() {
        let single = notes(&side(1), &side(3), S, 0);
        assert!(single[0].starts_with("single run: 1 base and 3 head") && single[0].contains("'inconclusive'"));
        assert!(single[0].contains("it takes 4 runs per side"), "{single:?}");
        let three = notes(&side(3), &side(3), S, 1);
        assert!(
            three[0].contains("smallest possible p-value is 0.100") && three[0].contains("at least 4 runs"),
            "{three:?}"
        );
        assert!(notes(&side(5), &side(5), S, 1).is_empty());
        // 156 tested metrics under Holm need 8 runs per side; 5 are not enough.
        let many = notes(&side(5), &side(5), S, 156);
        assert!(many[0].contains("after holm over 156 tested metrics") && many[0].contains("at least 8 runs"));
        // Instruction counts alone need no second run.
        let mut run = RunSamples::default();
        let mut icount = Section::default();
        icount.push("app::f", "ir", "ir", hotpath_model::Unit::Instructions, 10.0);
        run.sections.insert("functions_icount".into(), icount);
        let counted = Side::new("x", vec![], vec![run]);
        assert!(notes(&counted, &counted, S, 0).is_empty());
    }

    #[test]
    fn explains_the_run_section_and_async_duplicates() {
        let mut run = RunSamples { async_duplicates: 2, ..RunSamples::default() };
        run.sections.insert(RUN_SECTION.into(), Section::default());
        let with = Side::new("x", vec![], vec![run; 5]);
        let n = notes(&with, &side(5), S, 0);
        assert_eq!(n[0], RUN_NOTE);
        assert!(n[1].starts_with("2 #[measure] async function(s) appear in both"), "{n:?}");
    }
}
