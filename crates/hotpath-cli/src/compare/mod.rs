//! `hotpath compare`: regression detection between two sets of JSON reports, or
//! between two git commits whose program it builds and runs itself.
//!
//! Data flow: report files → `report_file` (per report, streamed: section → row →
//! metric values in `samples`; `functions_timing` typed, any other section `generic`,
//! each value's unit from `hotpath_model::Unit`) → `side` (values merged over runs)
//! → `diff` (each metric judged by `verdict`, with `stats`, as it is rendered) →
//! `render`.

mod diff;
mod family;
mod generic;
mod git;
mod icount;
mod inputs;
mod kind;
mod notes;
mod render;
mod report_file;
mod samples;
mod side;
mod stats;
mod timing;
mod verdict;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

use crate::input::InputArgs;
use diff::Comparison;
use verdict::Settings;

/// Runs per commit with `--git` when `--runs` is not given.
const DEFAULT_RUNS: u32 = 5;

/// Output formats of `hotpath compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Text tables for a terminal or a CI log.
    Table,
    /// GitHub-flavoured markdown, for a pull-request comment.
    Markdown,
    /// Every section, row and metric with statistics, for tools.
    Json,
}

/// Arguments of `hotpath compare`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Verdicts: timings, rates and levels (percentages, ratios) are noisy: with \
                  several runs per side they are tested (Mann-Whitney U), with one run on a side a change \
                  beyond the threshold is 'inconclusive', never 'regressed'. Counts and bytes are compared \
                  exactly. Units come from the field names (docs/JSON_SCHEMA.md).\n\n\
                  Section 'run' is no report section: it is the whole run, the wall time from the start of \
                  profiling to the report (meta.wall_ns), one row per #[hotpath::main] function. Async \
                  functions measured with #[measure] are compared once, in functions_timing (not again in \
                  futures).\n\n\
                  Exit status: 0 no regression (or regressions without --fail-on-regression), \
                  1 regression with --fail-on-regression, 2 usage or input error.\n\n\
                  Instruction counts (functions_icount, from a program built with hotpath-callgrind and run \
                  under valgrind --tool=callgrind) are exact: any change beyond --icount-threshold is a \
                  regression or an improvement, from one run per side. --git --valgrind runs each side once \
                  under Callgrind and compares only them.\n\n\
                  Examples:\n  hotpath compare base.json head.json\n  \
                  hotpath compare 'base/*.json' 'head/*.json' --format markdown\n  \
                  hotpath compare --git main HEAD --runs 5 -- cargo run --release --features hotpath\n  \
                  hotpath compare --git main HEAD --valgrind -- cargo run --release --features hotpath-callgrind")]
pub(crate) struct Args {
    /// Base reports: a JSON report, a directory of them, or a quoted glob ('base/*.json').
    #[arg(required_unless_present = "git", conflicts_with = "git")]
    base: Option<String>,
    /// Head reports, given like BASE.
    #[arg(required_unless_present = "git")]
    head: Option<String>,
    /// Build and run COMMAND at two git commits of the current repository (in temporary
    /// worktrees, alternating base and head runs) and compare the reports.
    #[arg(long, num_args = 2, value_names = ["BASE_REF", "HEAD_REF"], requires = "command")]
    git: Option<Vec<String>>,
    /// With --git: runs per commit [default: 5]. A tested timing verdict needs 4 or more.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000), requires = "git")]
    runs: Option<u32>,
    /// With --git: run each side once under `valgrind --tool=callgrind` and compare its
    /// instruction counts only (the program needs the hotpath-callgrind feature). A
    /// `cargo` command runs the program through Valgrind as its target runner.
    #[arg(long, requires = "git", conflicts_with = "runs")]
    valgrind: bool,
    /// With --git: keep the reports in DIR (base-01.json, head-01.json, ...).
    #[arg(long, value_name = "DIR", requires = "git")]
    reports_dir: Option<PathBuf>,
    /// With --git: build directory; each side builds in its own subdirectory so that
    /// alternating runs never rebuild. Default: $CARGO_TARGET_DIR or <repo>/target,
    /// plus /hotpath-compare.
    #[arg(long, value_name = "DIR", requires = "git")]
    target_dir: Option<PathBuf>,
    /// With --git: the command that runs the profiled program, after `--`. It is run in
    /// each worktree with HOTPATH_OUTPUT_FORMAT=json, HOTPATH_OUTPUT_PATH and HOTPATH_LIMIT=0 set.
    #[arg(last = true, value_name = "COMMAND", requires = "git")]
    command: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Write the output to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Minimum effect: smallest change of a median, in percent, that counts as a
    /// regression or an improvement.
    #[arg(long, alias = "min-effect", default_value_t = 5.0, value_name = "PERCENT")]
    threshold: f64,
    /// Noise floor: smallest change of a duration, in nanoseconds, that counts.
    #[arg(long, default_value_t = 100.0, value_name = "NS")]
    noise_floor_ns: f64,
    /// Error control over all metrics tested: holm (family-wise error), bh (false
    /// discovery rate, Benjamini-Hochberg) or none.
    #[arg(long, value_enum, default_value_t = family::ErrorControl::Holm)]
    error_control: family::ErrorControl,
    /// Smallest change of an instruction count that counts, in percent (`1%` or `1`).
    #[arg(long, default_value = "1%", value_name = "PERCENT", value_parser = icount::percent)]
    icount_threshold: f64,
    /// Significance level of the timing test (Mann-Whitney U, two-sided).
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// Exit with status 1 when anything regressed.
    #[arg(long)]
    fail_on_regression: bool,
    /// Show every compared metric, not only the changed ones (table and markdown).
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    input: InputArgs,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    if !(args.threshold.is_finite() && args.threshold >= 0.0) {
        bail!("--threshold {} is not a percentage (0 or more)", args.threshold);
    }
    if !(args.alpha > 0.0 && args.alpha < 1.0) {
        bail!("--alpha {} is not a significance level (between 0 and 1)", args.alpha);
    }
    if !(args.noise_floor_ns.is_finite() && args.noise_floor_ns >= 0.0) {
        bail!("--noise-floor-ns {} is not a duration (0 or more nanoseconds)", args.noise_floor_ns);
    }
    let settings = Settings {
        threshold_pct: args.threshold,
        alpha: args.alpha,
        icount_threshold_pct: args.icount_threshold,
        noise_floor_ns: args.noise_floor_ns,
        control: args.error_control,
    };
    let (base, head) = match (&args.git, &args.base, &args.head) {
        (Some(refs), _, _) => {
            let options = git::Options {
                base_ref: refs[0].clone(),
                head_ref: refs[1].clone(),
                // Instruction counts are exact: one run per side says all.
                runs: if args.valgrind { 1 } else { args.runs.unwrap_or(DEFAULT_RUNS) as usize },
                command: args.command.clone(),
                reports_dir: args.reports_dir.clone(),
                target_dir: args.target_dir.clone(),
                max_bytes: args.input.max_bytes(),
                valgrind: args.valgrind,
            };
            let (mut base, mut head) = git::run(&options)?;
            if args.valgrind {
                icount::only_icount(&mut base)?;
                icount::only_icount(&mut head)?;
            }
            (base, head)
        }
        (None, Some(base), Some(head)) => {
            let max = args.input.max_bytes();
            (inputs::load_spec("base", base, max)?, inputs::load_spec("head", head, max)?)
        }
        // clap requires BASE and HEAD unless --git is given.
        _ => bail!("give BASE and HEAD reports, or --git BASE_REF HEAD_REF -- COMMAND"),
    };
    let comparison = Comparison::new(&base, &head, settings);
    match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
            let mut out = std::io::BufWriter::new(file);
            write(&comparison, args, &mut out).with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            write(&comparison, args, &mut out).context("cannot write to standard output")?;
        }
    }
    let regressed = comparison.summary.regressed_metrics > 0;
    Ok(if regressed && args.fail_on_regression { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn write(c: &Comparison<'_>, args: &Args, out: &mut dyn Write) -> std::io::Result<()> {
    match args.format {
        Format::Table => out.write_all(render::table(c, args.all).as_bytes())?,
        Format::Markdown => out.write_all(render::markdown(c, args.all).as_bytes())?,
        Format::Json => render::json(c, out)?,
    }
    out.flush()
}
