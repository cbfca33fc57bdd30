//! The command line of `hotpath compare`, and the settings it resolves with the
//! policy file (a flag wins over the file, the file over the defaults).

use std::path::PathBuf;

use anyhow::bail;

use super::family::ErrorControl;
use super::icount;
use super::policy::Policy;
use super::verdict::Settings;
use crate::input::InputArgs;

/// Runs per commit with `--git` when `--runs` is not given.
pub(crate) const DEFAULT_RUNS: u32 = 5;
const DEFAULT_MIN_EFFECT_PCT: f64 = 5.0;
const DEFAULT_NOISE_FLOOR_NS: f64 = 100.0;
const DEFAULT_ALPHA: f64 = 0.01;
const DEFAULT_ICOUNT_PCT: f64 = 1.0;

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
#[command(after_help = "Verdicts: each figure is exact, statistical or informational (the model's unit table, \
                  README 'Regression detection'). Exact figures (calls, allocations of deterministic code, \
                  instruction counts) are compared exactly from one run per side, as long as each side's runs \
                  agree; else they are tested. Statistical figures (timings, rates, shares, and counts that \
                  depend on scheduling: contention, blocked sends, polls, queue levels) are tested with \
                  Mann-Whitney U over the runs, the p-values adjusted over every metric tested \
                  (--error-control); a regression also needs the --min-effect and, for durations, the \
                  --noise-floor-ns. With one run on a side a statistical change is 'inconclusive', never \
                  'regressed'. Extremes of single operations (min, max) are never judged.\n\n\
                  First thing in a new CI: hotpath compare --aa (reports of one build, or --git HEAD HEAD --aa) \
                  measures the false-alarm rate of the settings on that machine.\n\n\
                  Budgets and settings come from a policy file: --policy FILE, $HOTPATH_POLICY_PATH, \
                  hotpath/<bench>-policy.toml or hotpath/policy.toml. With one report and a policy, only its \
                  budgets are checked.\n\n\
                  Section 'run' is no report section: it is the whole run, the wall time from the start of \
                  profiling to the report (meta.wall_ns), one row per #[hotpath::main] function. Async \
                  functions measured with #[measure] are compared once, in functions_timing (not again in \
                  futures). Timings of reports made under Callgrind are left out.\n\n\
                  Exit status: 0 no regression and every budget met (or without --fail-on-regression), \
                  1 a regression, a failed budget or an A/A false alarm with --fail-on-regression, 2 usage or \
                  input error.\n\n\
                  Examples:\n  hotpath compare base.json head.json\n  \
                  hotpath compare 'base/*.json' 'head/*.json' --format markdown\n  \
                  hotpath compare --aa 'runs/*.json'\n  \
                  hotpath compare --policy hotpath/policy.toml report.json\n  \
                  hotpath compare --git main HEAD --runs 8 -- cargo run --release --features hotpath\n  \
                  hotpath compare --git HEAD HEAD --aa --runs 8 -- cargo run --release --features hotpath\n  \
                  hotpath compare --git main HEAD --valgrind -- cargo run --release --features hotpath-callgrind")]
pub(crate) struct Args {
    /// Base reports: a JSON report, a directory of them, or a quoted glob ('base/*.json').
    /// Alone: the reports of `--aa`, or the report whose budgets are checked.
    #[arg(required_unless_present = "git", conflicts_with = "git")]
    pub(crate) base: Option<String>,
    /// Head reports, given like BASE.
    pub(crate) head: Option<String>,
    /// Build and run COMMAND at two git commits of the current repository (in temporary
    /// worktrees, alternating base and head runs) and compare the reports.
    #[arg(long, num_args = 2, value_names = ["BASE_REF", "HEAD_REF"], requires = "command")]
    pub(crate) git: Option<Vec<String>>,
    /// With --git: runs per commit [default: 5; 1 with --valgrind].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000), requires = "git")]
    pub(crate) runs: Option<u32>,
    /// With --git: run each side under `valgrind --tool=callgrind` and compare its
    /// instruction counts only (the program needs the hotpath-callgrind feature). A
    /// `cargo` command runs the program through Valgrind as its target runner.
    #[arg(long, requires = "git")]
    pub(crate) valgrind: bool,
    /// With --git: keep the reports in DIR (base-01.json, head-01.json, ...).
    #[arg(long, value_name = "DIR", requires = "git")]
    pub(crate) reports_dir: Option<PathBuf>,
    /// With --git: build directory; each side builds in its own subdirectory so that
    /// alternating runs never rebuild. Default: $CARGO_TARGET_DIR or <repo>/target,
    /// plus /hotpath-compare.
    #[arg(long, value_name = "DIR", requires = "git")]
    pub(crate) target_dir: Option<PathBuf>,
    /// With --git: the command that runs the profiled program, after `--`. It is run in
    /// each worktree with HOTPATH_OUTPUT_FORMAT=json, HOTPATH_OUTPUT_PATH and HOTPATH_LIMIT=0 set.
    #[arg(last = true, value_name = "COMMAND", requires = "git")]
    pub(crate) command: Vec<String>,
    /// A/A self-check: split the reports of one build (BASE, or both sides of
    /// `--git REF REF`) into halves many ways and report the false-alarm rate.
    #[arg(long, conflicts_with = "head")]
    pub(crate) aa: bool,
    /// With --aa: how many splits to compare.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000), requires = "aa")]
    pub(crate) aa_splits: u32,
    /// Policy file: budgets, judged metrics, minimum change and error control.
    #[arg(long, value_name = "FILE")]
    pub(crate) policy: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub(crate) format: Format,
    /// Write the output to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Minimum effect: smallest change of a median, in percent, that counts as a
    /// regression or an improvement [default: 5].
    #[arg(long, alias = "min-effect", value_name = "PERCENT")]
    pub(crate) threshold: Option<f64>,
    /// Noise floor: smallest change of a duration, in nanoseconds, that counts [default: 100].
    #[arg(long, value_name = "NS")]
    pub(crate) noise_floor_ns: Option<f64>,
    /// Error control over all metrics tested: holm (family-wise error, the default), bh
    /// (false discovery rate, Benjamini-Hochberg) or none.
    #[arg(long, value_enum)]
    pub(crate) error_control: Option<ErrorControl>,
    /// Smallest change of an instruction count that counts, in percent (`1%` or `1`) [default: 1%].
    #[arg(long, value_name = "PERCENT", value_parser = icount::percent)]
    pub(crate) icount_threshold: Option<f64>,
    /// Significance level after error control (Mann-Whitney U, two-sided) [default: 0.01:
    /// on identical code at most one comparison in a hundred raises an alarm].
    #[arg(long)]
    pub(crate) alpha: Option<f64>,
    /// Exit with status 1 when anything regressed or a budget failed.
    #[arg(long)]
    pub(crate) fail_on_regression: bool,
    /// Show every compared metric, not only the changed ones (table and markdown).
    #[arg(long)]
    pub(crate) all: bool,
    #[command(flatten)]
    pub(crate) input: InputArgs,
}

impl Args {
    /// The settings: each from its flag, else the policy, else the default.
    pub(crate) fn settings(&self, policy: Option<&Policy>) -> anyhow::Result<Settings> {
        let threshold = self.threshold.or(policy.and_then(|p| p.min_change_pct)).unwrap_or(DEFAULT_MIN_EFFECT_PCT);
        if !(threshold.is_finite() && threshold >= 0.0) {
            bail!("--threshold {threshold} is not a percentage (0 or more)");
        }
        let alpha = self.alpha.or(policy.and_then(|p| p.alpha)).unwrap_or(DEFAULT_ALPHA);
        if !(alpha > 0.0 && alpha < 1.0) {
            bail!("--alpha {alpha} is not a significance level (between 0 and 1)");
        }
        let noise_floor_ns =
            self.noise_floor_ns.or(policy.and_then(|p| p.noise_floor_ns)).unwrap_or(DEFAULT_NOISE_FLOOR_NS);
        if !(noise_floor_ns.is_finite() && noise_floor_ns >= 0.0) {
            bail!("--noise-floor-ns {noise_floor_ns} is not a duration (0 or more nanoseconds)");
        }
        Ok(Settings {
            threshold_pct: threshold,
            alpha,
            icount_threshold_pct: self
                .icount_threshold
                .or(policy.and_then(|p| p.icount_min_change_pct))
                .unwrap_or(DEFAULT_ICOUNT_PCT),
            noise_floor_ns,
            control: self.error_control.or(policy.and_then(|p| p.control)).unwrap_or_default(),
        })
    }
}
