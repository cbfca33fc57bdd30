//! `hotpath compare`: regression detection between two sets of JSON reports, or
//! between two git commits whose program it builds and runs itself.
//!
//! Data flow: report files → `report_file` (per report, streamed: section → row →
//! metric values in `samples`; `functions_timing` typed, any other section `generic`,
//! each value's unit from `hotpath_model::Unit`) → `side` (values merged over runs)
//! → `diff` (each metric judged by `verdict`, with `stats`, as it is rendered) →
//! `render`.

mod aa;
mod args;
mod diff;
mod family;
mod generic;
mod git;
mod icount;
mod inputs;
mod kind;
mod notes;
mod policy;
mod render;
mod report_file;
mod samples;
mod side;
mod stats;
mod timing;
mod typed;
mod verdict;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};

pub(crate) use args::Args;
use args::{Format, DEFAULT_RUNS};
use diff::Comparison;
use policy::budget::Checked;
use policy::Policy;
use side::Side;
use verdict::Settings;

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let policy = match policy::locate(args.policy.as_deref())? {
        Some(path) => Some(policy::load(&path)?),
        None => None,
    };
    let policy = policy.as_ref();
    let settings = args.settings(policy)?;
    let max = args.input.max_bytes();
    if args.aa {
        return self_check(args, settings, policy);
    }
    let (base, head) = match (&args.git, &args.base, &args.head) {
        (Some(refs), _, _) => {
            let (base, head) = git_sides(args, refs, args.reports_dir.clone())?;
            (Some(base), head)
        }
        (None, Some(base), Some(head)) => {
            (Some(inputs::load_spec("base", base, max)?), inputs::load_spec("head", head, max)?)
        }
        (None, Some(only), None) if policy.is_some() => (None, inputs::load_spec("report", only, max)?),
        (None, Some(_), None) => bail!(
            "give HEAD reports too; with one set of reports, --policy FILE checks its budgets and --aa measures the \
             false-alarm rate of one build against itself"
        ),
        // clap requires BASE unless --git is given.
        _ => bail!("give BASE and HEAD reports, or --git BASE_REF HEAD_REF -- COMMAND"),
    };
    let Some(base) = base else {
        // One report and a policy: its budgets only.
        let policy = policy.context("a policy is needed to check budgets")?;
        let checked = policy::budget::check(&policy.budgets, &head);
        emit(args, |out| write_budgets(args, policy, &head, &checked, out))?;
        return Ok(exit(args, checked.iter().any(|c| !c.passed)));
    };
    let mut comparison = Comparison::with_policy(&base, &head, settings, policy);
    if base.label_commit.is_some() && base.label_commit == head.label_commit {
        comparison.notes.push(
            "both refs are one commit: this is an A/A comparison, so any regression is a false alarm (--aa \
             measures the rate over many splits)"
                .into(),
        );
    }
    emit(args, |out| write(&comparison, args, out))?;
    Ok(exit(args, comparison.summary.failed()))
}

fn exit(args: &Args, failed: bool) -> ExitCode {
    if failed && args.fail_on_regression {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Builds and runs both commits; `reports_dir` keeps the reports.
fn git_sides(args: &Args, refs: &[String], reports_dir: Option<PathBuf>) -> anyhow::Result<(Side, Side)> {
    let options = git::Options {
        base_ref: refs[0].clone(),
        head_ref: refs[1].clone(),
        // Instruction counts are exact: one run per side says all, unless asked for more
        // to find counts that differ between runs (a per-run hash seed).
        runs: args.runs.unwrap_or(if args.valgrind { 1 } else { DEFAULT_RUNS }) as usize,
        command: args.command.clone(),
        reports_dir,
        target_dir: args.target_dir.clone(),
        max_bytes: args.input.max_bytes(),
        valgrind: args.valgrind,
    };
    let (mut base, mut head) = git::run(&options)?;
    if args.valgrind {
        icount::only_icount(&mut base)?;
        icount::only_icount(&mut head)?;
    }
    Ok((base, head))
}

/// `--aa`: the reports of one build (BASE, or both sides of `--git REF REF`) split many ways.
fn self_check(args: &Args, settings: Settings, policy: Option<&Policy>) -> anyhow::Result<ExitCode> {
    let max = args.input.max_bytes();
    let (label, runs) = match (&args.git, &args.base) {
        (Some(refs), _) => {
            if !git::same_commit(&refs[0], &refs[1])? {
                bail!(
                    "--aa compares one commit with itself, and {} and {} are different commits: give one ref twice \
                     (--git HEAD HEAD --aa)",
                    refs[0],
                    refs[1]
                );
            }
            let scratch = tempfile::tempdir().context("cannot create a directory for the reports")?;
            let dir = args.reports_dir.clone().unwrap_or_else(|| scratch.path().to_path_buf());
            let (base, head) = git_sides(args, refs, Some(dir))?;
            let files: Vec<PathBuf> = base.files.iter().chain(&head.files).cloned().collect();
            (base.label.clone(), inputs::read_runs("reports", &files, max)?)
        }
        (None, Some(spec)) => {
            let files = inputs::files_of("reports", spec)?;
            (spec.clone(), inputs::read_runs("reports", &files, max)?)
        }
        _ => bail!("--aa needs the reports of one build (hotpath compare --aa 'runs/*.json'), or --git REF REF"),
    };
    if runs.len() < 2 {
        bail!("--aa needs at least 2 reports of one build to split in halves; {label} has {}", runs.len());
    }
    let check = aa::self_check(&label, &runs, args.aa_splits as usize, settings, policy);
    emit(args, |out| match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &check)?;
            out.write_all(b"\n")
        }
        Format::Markdown => write!(out, "### hotpath A/A self-check\n\n```\n{}```\n", aa::text(&check, settings)),
        Format::Table => out.write_all(aa::text(&check, settings).as_bytes()),
    })?;
    Ok(exit(args, check.alarmed > 0))
}

/// Runs `f` on the output file or standard output.
fn emit(args: &Args, f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> anyhow::Result<()> {
    match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
            let mut out = std::io::BufWriter::new(file);
            f(&mut out).and_then(|()| out.flush()).with_context(|| format!("cannot write {}", path.display()))
        }
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            f(&mut out).and_then(|()| out.flush()).context("cannot write to standard output")
        }
    }
}

fn write(c: &Comparison<'_>, args: &Args, out: &mut dyn Write) -> std::io::Result<()> {
    match args.format {
        Format::Table => out.write_all(render::table(c, args.all).as_bytes()),
        Format::Markdown => out.write_all(render::markdown(c, args.all).as_bytes()),
        Format::Json => render::json(c, out),
    }
}

/// One report's budgets, without a comparison.
fn write_budgets(
    args: &Args,
    policy: &Policy,
    side: &Side,
    checked: &[Checked],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let path = policy.path.display().to_string();
    let failed = checked.iter().any(|c| !c.passed);
    match args.format {
        Format::Json => {
            let value = serde_json::json!({
                "compare_version": diff::COMPARE_VERSION,
                "head": {"label": side.label, "runs": side.runs, "files": side.files},
                "policy": path,
                "budgets": checked,
                "summary": {"budgets_checked": checked.len(), "budgets_failed": checked.iter().filter(|c| !c.passed).count()},
            });
            serde_json::to_writer_pretty(&mut *out, &value)?;
            out.write_all(b"\n")
        }
        Format::Markdown => {
            let head = if failed { "**:x: Budget failed**" } else { "**:white_check_mark: Budgets met**" };
            write!(out, "### hotpath budgets\n\n{head}: {}.\n", render::budgets::summary(checked))?;
            out.write_all(render::budgets::markdown(checked, &path).as_bytes())
        }
        Format::Table => {
            writeln!(out, "hotpath budgets\n  report: {}, {}", side.label, render_runs(side.runs))?;
            if checked.is_empty() {
                writeln!(out, "\nthe policy {} has no budgets", Path::new(&path).display())?;
            }
            out.write_all(render::budgets::table(checked, &path).as_bytes())?;
            let status = if failed { "BUDGET FAILED" } else { "budgets met" };
            writeln!(out, "\nResult: {status}: {}", render::budgets::summary(checked))
        }
    }
}

fn render_runs(runs: usize) -> String {
    format!("{runs} run{}", if runs == 1 { "" } else { "s" })
}
