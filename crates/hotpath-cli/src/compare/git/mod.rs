//! `hotpath compare --git BASE_REF HEAD_REF --runs N -- COMMAND`: checks out both
//! commits in temporary worktrees, runs COMMAND N times in each, alternating sides
//! in ABBA order (base, head, head, base, ...) so that a machine slowly getting
//! faster or slower affects both sides alike, and reads the reports the runs wrote.

mod callgrind;
mod manifests;
mod repo;
mod runner;

use std::path::{Path, PathBuf};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};

use super::inputs;
use super::side::Side;
use repo::{Repo, Worktrees};
use runner::Run;

/// What `--git` was asked to do.
pub(crate) struct Options {
    pub(crate) base_ref: String,
    pub(crate) head_ref: String,
    pub(crate) runs: usize,
    pub(crate) command: Vec<String>,
    pub(crate) reports_dir: Option<PathBuf>,
    pub(crate) target_dir: Option<PathBuf>,
    /// Largest report a run may write, in bytes.
    pub(crate) max_bytes: u64,
    /// Run the program under `valgrind --tool=callgrind` (`--valgrind`).
    pub(crate) valgrind: bool,
}

/// One of the two commits being compared.
struct Commit {
    which: &'static str,
    label: String,
    dir: PathBuf,
    target_dir: PathBuf,
    reports: Vec<PathBuf>,
}

/// Whether two refs of the repository around the current directory are one commit.
pub(crate) fn same_commit(a: &str, b: &str) -> anyhow::Result<bool> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let repo = Repo::discover(&cwd)?;
    Ok(repo.resolve(a).context("BASE_REF")? == repo.resolve(b).context("HEAD_REF")?)
}

/// Builds and runs the command at both commits and reads the reports as two sides.
pub(crate) fn run(options: &Options) -> anyhow::Result<(Side, Side)> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let repo = Repo::discover(&cwd)?;
    let base_sha = repo.resolve(&options.base_ref).context("BASE_REF")?;
    let head_sha = repo.resolve(&options.head_ref).context("HEAD_REF")?;
    runner::handle_interrupts();

    let mut trees = Worktrees::new(&repo)?;
    let reports_dir = match &options.reports_dir {
        Some(dir) => cwd.join(dir),
        None => trees.scratch().join("reports"),
    };
    std::fs::create_dir_all(&reports_dir).with_context(|| format!("cannot create {}", reports_dir.display()))?;
    let callgrind = if options.valgrind { Some(callgrind::Callgrind::prepare(trees.scratch())?) } else { None };
    let target_root = options.target_dir.as_ref().map(|d| cwd.join(d)).unwrap_or_else(|| default_target(&repo, &cwd));

    let mut add = |which: &'static str, name: &str, sha: &str| -> anyhow::Result<Commit> {
        let tree = trees.add(which, sha)?;
        manifests::resolve_outside_paths(&repo.top, &tree)
            .with_context(|| format!("the {which} worktree at {} ({})", label(name, sha), tree.display()))?;
        Ok(Commit {
            which,
            label: label(name, sha),
            dir: tree.join(&repo.prefix),
            target_dir: target_root.join(which),
            reports: Vec::new(),
        })
    };
    let mut commits = [add("base", &options.base_ref, &base_sha)?, add("head", &options.head_ref, &head_sha)?];

    let order = schedule(options.runs);
    let progress = progress_bar(order.len());
    for &(side, n) in &order {
        runner::check_interrupted()?;
        let commit = &mut commits[side];
        let message = format!("{} run {}/{} at {}", commit.which, n + 1, options.runs, commit.label);
        progress.set_message(message.clone());
        if progress.is_hidden() {
            eprintln!("[hotpath] {message}");
        }
        let report = reports_dir.join(format!("{}-{:02}.json", commit.which, n + 1));
        let run = Run {
            command: &options.command,
            dir: &commit.dir,
            target_dir: &commit.target_dir,
            report: &report,
            callgrind: callgrind.as_ref(),
        };
        run.execute().with_context(|| message.clone())?;
        commit.reports.push(report);
        progress.inc(1);
    }
    progress.finish_and_clear();

    // Read before the worktrees (and a temporary reports directory) are removed.
    let [base, head] = commits;
    let mut base = inputs::load(base.which, &base.label, base.reports, options.max_bytes)?;
    let mut head = inputs::load(head.which, &head.label, head.reports, options.max_bytes)?;
    base.label_commit = Some(base_sha);
    head.label_commit = Some(head_sha);
    Ok((base, head))
}

/// `main (1a2b3c4d5e)`, or just the short hash when the ref is a hash already.
fn label(name: &str, sha: &str) -> String {
    let short = &sha[..sha.len().min(10)];
    if sha.starts_with(name) {
        short.to_string()
    } else {
        format!("{name} ({short})")
    }
}

/// `(side, run)` pairs in ABBA order: base 0 = base, 1 = head.
fn schedule(runs: usize) -> Vec<(usize, usize)> {
    (0..runs).flat_map(|n| if n % 2 == 0 { [(0, n), (1, n)] } else { [(1, n), (0, n)] }).collect()
}

/// `$CARGO_TARGET_DIR/hotpath-compare`, else `<repo>/target/hotpath-compare`: kept
/// between invocations so that only what changed is rebuilt next time.
fn default_target(repo: &Repo, cwd: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => cwd.join(dir).join("hotpath-compare"),
        _ => repo.top.join("target").join("hotpath-compare"),
    }
}

/// A bar on a terminal; hidden (and replaced by one log line per run) elsewhere.
fn progress_bar(len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed_precise}] [{bar:30}] {pos}/{len} {msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_ref_and_its_commit() {
        let sha = "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d";
        assert_eq!(label("main", sha), "main (1a2b3c4d5e)");
        assert_eq!(label("1a2b3c4", sha), "1a2b3c4d5e");
        assert_eq!(label(sha, sha), "1a2b3c4d5e");
    }

    #[test]
    fn runs_alternate_in_abba_order() {
        assert_eq!(schedule(3), [(0, 0), (1, 0), (1, 1), (0, 1), (0, 2), (1, 2)]);
        // Each side sits at the same mean position, so linear drift cancels for even runs.
        let order = schedule(4);
        let mean = |side| {
            let pos: Vec<usize> = order.iter().enumerate().filter(|(_, (s, _))| *s == side).map(|(i, _)| i).collect();
            pos.iter().sum::<usize>() as f64 / pos.len() as f64
        };
        assert_eq!(mean(0), mean(1));
    }
}
