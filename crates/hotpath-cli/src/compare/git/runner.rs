//! One run of the user's command in a worktree, writing its JSON report to a file.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context};

use super::callgrind::Callgrind;

/// Set by the Ctrl-C / SIGTERM handler; checked after every run so that the
/// worktrees are removed before the process ends.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Lets Ctrl-C end `compare --git` through the normal error path (the running
/// child gets the signal too and stops).
pub(crate) fn handle_interrupts() {
    if let Err(e) = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst)) {
        eprintln!("[hotpath] warning: cannot handle Ctrl-C ({e}); an interrupted run may leave a worktree behind");
    }
}

pub(crate) fn check_interrupted() -> anyhow::Result<()> {
    if INTERRUPTED.load(Ordering::SeqCst) {
        bail!("interrupted");
    }
    Ok(())
}

/// Where and how one run happens.
pub(crate) struct Run<'a> {
    pub(crate) command: &'a [String],
    /// Working directory: the worktree, plus the subdirectory the user was in.
    pub(crate) dir: &'a Path,
    /// `CARGO_TARGET_DIR` of this side.
    pub(crate) target_dir: &'a Path,
    /// File the report is written to.
    pub(crate) report: &'a Path,
    /// With `--valgrind`: how the program runs under Callgrind.
    pub(crate) callgrind: Option<&'a Callgrind>,
}

impl Run<'_> {
    /// Runs the command to completion; the report must exist afterwards.
    pub(crate) fn execute(&self) -> anyhow::Result<()> {
        let shown = self.command.join(" ");
        if self.report.exists() {
            std::fs::remove_file(self.report)
                .with_context(|| format!("cannot remove the old report {}", self.report.display()))?;
        }
        let (command, env) = match self.callgrind {
            Some(callgrind) => callgrind.wrap(self.command),
            None => (self.command.to_vec(), Vec::new()),
        };
        let (program, args) = command.split_first().context("no command given after --")?;
        let out = Command::new(program)
            .args(args)
            .envs(env)
            .current_dir(self.dir)
            .env("HOTPATH_OUTPUT_FORMAT", "json")
            .env("HOTPATH_OUTPUT_PATH", self.report)
            // Every row, so that no function drops out of one side's top rows.
            .env("HOTPATH_LIMIT", "0")
            .env("CARGO_TARGET_DIR", self.target_dir)
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("cannot start `{shown}` in {}", self.dir.display()))?;
        check_interrupted()?;
        if !out.status.success() {
            bail!(
                "`{shown}` failed ({}) in {}{}{}",
                out.status,
                self.dir.display(),
                hint(&out.stderr),
                tail(&out.stderr, &out.stdout)
            );
        }
        if !self.report.is_file() {
            bail!(
                "`{shown}` wrote no report to {}: the command must run a program with #[hotpath::main] built \
                 with the `hotpath` feature (for example `cargo run --release --features hotpath`){}",
                self.report.display(),
                tail(&out.stderr, &out.stdout)
            );
        }
        Ok(())
    }
}

/// What to do about a failure cargo explains in a known way.
fn hint(stderr: &[u8]) -> &'static str {
    let text = String::from_utf8_lossy(stderr);
    if text.contains("failed to read") && text.contains("Cargo.toml") {
        "\nhint: a manifest cargo needs is not in the worktree. Relative `path =` dependencies that leave the \
         repository are made absolute in the worktrees; a path set elsewhere (a .cargo/config.toml, a build \
         script, a git submodule not checked out) is not: make it absolute, or check it out beside the repository"
    } else {
        ""
    }
}

/// The last lines the command printed, to show why it failed.
fn tail(stderr: &[u8], stdout: &[u8]) -> String {
    const LINES: usize = 20;
    let mut out = String::new();
    for (name, bytes) in [("stderr", stderr), ("stdout", stdout)] {
        let text = String::from_utf8_lossy(bytes);
        let lines: Vec<&str> = text.lines().collect();
        if !lines.is_empty() {
            out.push_str(&format!("\n--- last lines of its {name}:\n"));
            out.push_str(&lines[lines.len().saturating_sub(LINES)..].join("\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_in(dir: &Path, command: &[&str]) -> anyhow::Result<()> {
        let command: Vec<String> = command.iter().map(|s| s.to_string()).collect();
        let report = dir.join("r.json");
        Run { command: &command, dir, target_dir: dir, report: &report, callgrind: None }.execute()
    }

    #[test]
    fn passes_the_report_path_and_checks_the_report_exists() {
        let dir = tempfile::tempdir().unwrap();
        run_in(dir.path(), &["sh", "-c", "echo \"$HOTPATH_OUTPUT_FORMAT $HOTPATH_LIMIT\" > \"$HOTPATH_OUTPUT_PATH\""])
            .unwrap();
        assert_eq!(std::fs::read_to_string(dir.path().join("r.json")).unwrap(), "json 0\n");
        let err = run_in(dir.path(), &["true"]).unwrap_err().to_string();
        assert!(err.contains("`true` wrote no report to ") && err.contains("hotpath"), "{err}");
    }

    #[test]
    fn a_failing_command_shows_its_last_lines() {
        let dir = tempfile::tempdir().unwrap();
        let err = run_in(dir.path(), &["sh", "-c", "echo building; echo boom >&2; exit 3"]).unwrap_err().to_string();
        assert!(err.contains("failed (exit status: 3)"), "{err}");
        assert!(err.contains("stderr:\nboom") && err.contains("stdout:\nbuilding"), "{err}");
        let err = run_in(dir.path(), &["/nonexistent/program"]).unwrap_err();
        assert!(format!("{err:#}").contains("cannot start `/nonexistent/program`"), "{err:#}");
    }
}
