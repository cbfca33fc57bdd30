//! `--git --valgrind`: each side's command runs its program under
//! `valgrind --tool=callgrind`. A `cargo` command (`cargo run`, `cargo bench`) gets
//! Valgrind as its target runner (`CARGO_TARGET_<host>_RUNNER`), so that cargo
//! itself and the build run natively; any other command is prefixed with Valgrind.
//! The dumps go to a directory of the comparison's scratch space, and the program is
//! told where (`HOTPATH_CALLGRIND_OUT_FILE` must match `--callgrind-out-file`).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context};

/// How a command is run under Callgrind.
pub(crate) struct Callgrind {
    /// `--callgrind-out-file` and `HOTPATH_CALLGRIND_OUT_FILE`.
    out_file: PathBuf,
    /// `CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER` for the host.
    runner_var: String,
}

impl Callgrind {
    /// Checks that Valgrind runs, and prepares the dump directory under `scratch`.
    pub(crate) fn prepare(scratch: &Path) -> anyhow::Result<Self> {
        let version = Command::new("valgrind").arg("--version").output();
        if !version.is_ok_and(|o| o.status.success()) {
            bail!("--valgrind needs Valgrind on the PATH (on Debian or Ubuntu: apt-get install valgrind)");
        }
        let dir = scratch.join("callgrind");
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let out_file = dir.join("callgrind.out.%p");
        // Cargo splits a runner given in the environment at spaces.
        if out_file.to_str().is_none_or(|p| p.chars().any(char::is_whitespace)) {
            bail!("--valgrind needs a temporary directory whose path has no spaces (set TMPDIR): {}", dir.display());
        }
        Ok(Self { out_file, runner_var: runner_var(&host_triple()) })
    }

    /// The command to run, and the variables to set, for `command`.
    pub(crate) fn wrap(&self, command: &[String]) -> (Vec<String>, Vec<(String, String)>) {
        let out = self.out_file.display().to_string();
        let valgrind = ["valgrind".to_string(), "--tool=callgrind".into(), format!("--callgrind-out-file={out}")];
        let mut env = vec![("HOTPATH_CALLGRIND_OUT_FILE".to_string(), out)];
        let is_cargo = command.first().and_then(|p| Path::new(p).file_stem()).is_some_and(|name| name == "cargo");
        if is_cargo {
            env.push((self.runner_var.clone(), valgrind.join(" ")));
            (command.to_vec(), env)
        } else {
            (valgrind.into_iter().chain(command.iter().cloned()).collect(), env)
        }
    }
}

/// `rustc -vV`'s host triple; x86_64 Linux, the one platform counted, if rustc cannot say.
fn host_triple() -> String {
    let out = Command::new("rustc").arg("-vV").output();
    let text = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map_or_else(|| "x86_64-unknown-linux-gnu".to_string(), |h| h.trim().to_string())
}

/// Cargo's runner variable for a target triple.
fn runner_var(triple: &str) -> String {
    format!("CARGO_TARGET_{}_RUNNER", triple.to_ascii_uppercase().replace(['-', '.'], "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_gets_a_runner_and_other_commands_a_prefix() {
        let cg = Callgrind {
            out_file: PathBuf::from("/tmp/x/callgrind.out.%p"),
            runner_var: runner_var("x86_64-unknown-linux-gnu"),
        };
        let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let (cmd, env) = cg.wrap(&words("cargo run --release"));
        assert_eq!(cmd, words("cargo run --release"));
        assert_eq!(
            env,
            [
                ("HOTPATH_CALLGRIND_OUT_FILE".to_string(), "/tmp/x/callgrind.out.%p".to_string()),
                (
                    "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER".to_string(),
                    "valgrind --tool=callgrind --callgrind-out-file=/tmp/x/callgrind.out.%p".to_string()
                ),
            ]
        );
        let (cmd, env) = cg.wrap(&words("./target/release/app --fast"));
        assert_eq!(
            cmd,
            words("valgrind --tool=callgrind --callgrind-out-file=/tmp/x/callgrind.out.%p ./target/release/app --fast")
        );
        assert_eq!(env.len(), 1);
        assert_eq!(runner_var("thumbv7em-none-eabihf"), "CARGO_TARGET_THUMBV7EM_NONE_EABIHF_RUNNER");
    }
}
