//! The git side of `--git`: finding the repository, resolving refs, and temporary
//! worktrees that are removed again whatever happens (error, panic, Ctrl-C).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context};
use tempfile::TempDir;

/// The repository the command was started in.
pub(crate) struct Repo {
    /// Top-level directory of its work tree.
    pub(crate) top: PathBuf,
    /// The current directory relative to `top`, so that each worktree runs the command
    /// from the same subdirectory.
    pub(crate) prefix: PathBuf,
}

impl Repo {
    pub(crate) fn discover(cwd: &Path) -> anyhow::Result<Self> {
        let top = git(cwd, ["rev-parse", "--show-toplevel"])
            .with_context(|| format!("--git needs a git repository, and {} is not in one", cwd.display()))?;
        let prefix = git(cwd, ["rev-parse", "--show-prefix"])?;
        Ok(Self { top: PathBuf::from(top), prefix: PathBuf::from(prefix) })
    }

    /// The full commit hash `name` points to.
    pub(crate) fn resolve(&self, name: &str) -> anyhow::Result<String> {
        if name.starts_with('-') {
            bail!("{name:?} is not a git ref");
        }
        git(&self.top, ["rev-parse", "--verify", "--quiet", &format!("{name}^{{commit}}")])
            .map_err(|_| anyhow::anyhow!("{name:?} is not a commit of the repository {}", self.top.display()))
    }
}

/// Runs git in `dir` and returns its trimmed standard output.
fn git<I, S>(dir: &Path, args: I) -> anyhow::Result<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<S> = args.into_iter().collect();
    let shown: Vec<String> = args.iter().map(|a| a.as_ref().to_string_lossy().into_owned()).collect();
    let out = Command::new("git")
        .args(&args)
        .current_dir(dir)
        .output()
        .with_context(|| format!("cannot run `git {}`", shown.join(" ")))?;
    if !out.status.success() {
        bail!("`git {}` failed: {}", shown.join(" "), String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Detached worktrees in a temporary directory, removed from the repository and
/// from disk when dropped.
pub(crate) struct Worktrees<'a> {
    repo: &'a Repo,
    added: Vec<PathBuf>,
    root: PathBuf,
    /// Taken in `drop` to delete the directory before pruning.
    dir: Option<TempDir>,
}

impl<'a> Worktrees<'a> {
    pub(crate) fn new(repo: &'a Repo) -> anyhow::Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("hotpath-compare-")
            .tempdir()
            .context("cannot create a temporary directory for the worktrees")?;
        Ok(Self { repo, added: Vec::new(), root: dir.path().to_path_buf(), dir: Some(dir) })
    }

    /// The temporary directory holding the worktrees (removed with them).
    pub(crate) fn scratch(&self) -> &Path {
        &self.root
    }

    /// Checks out `commit` in a new worktree named `name` and returns its path.
    pub(crate) fn add(&mut self, name: &str, commit: &str) -> anyhow::Result<PathBuf> {
        let path = self.root.join(name);
        // Recorded first: a failed `add` may still have registered the worktree.
        self.added.push(path.clone());
        let args = [OsStr::new("worktree"), "add".as_ref(), "--detach".as_ref(), "--quiet".as_ref()];
        git(&self.repo.top, args.into_iter().chain([path.as_os_str(), commit.as_ref()]))
            .with_context(|| format!("cannot check out {commit} in a worktree"))?;
        Ok(path)
    }
}

impl Drop for Worktrees<'_> {
    fn drop(&mut self) {
        for path in &self.added {
            if path.exists() {
                let args = [OsStr::new("worktree"), "remove".as_ref(), "--force".as_ref(), path.as_os_str()];
                if let Err(e) = git(&self.repo.top, args) {
                    eprintln!("[hotpath] warning: {e:#}");
                }
            }
        }
        if let Some(dir) = self.dir.take() {
            if let Err(e) = dir.close() {
                eprintln!("[hotpath] warning: cannot delete {}: {e}", self.root.display());
            }
        }
        // Forgets registrations whose directory is now gone (a failed `add`, or a removal
        // above that failed).
        let _ = git(&self.repo.top, ["worktree", "prune"]);
    }
}
