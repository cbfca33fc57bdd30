//! The overhead budget's test program (`case_budget`, `tests/programs/budget.rs`), run
//! as a release build one run at a time.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use super::{json_report, stderr};

/// `target/release/examples/case_budget`, built on first use.
pub(crate) fn release_example() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = Command::new(cargo)
                .args(["build", "--release", "--quiet", "-p", "hotpath", "--example", "case_budget"])
                .args(["--features", "hotpath"])
                .status()
                .expect("cargo runs");
            assert!(status.success(), "release build of case_budget failed");
            let debug = super::example("case_budget");
            let target = debug.ancestors().nth(3).expect("target dir").to_path_buf();
            target.join("release").join("examples").join("case_budget")
        })
        .clone()
}

/// One run at a time: a second run beside one is load on a 2-core machine (its
/// figures would not change much in thread CPU time, its budget's decisions would).
pub(crate) static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub(crate) fn release_run(args: &[&str], env: &[(&str, &str)]) -> serde_json::Value {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let mut cmd = Command::new(release_example());
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("HOTPATH_")) {
        cmd.env_remove(key);
    }
    cmd.env("HOTPATH_METRICS_SERVER_OFF", "1").args(args).envs(env.iter().copied());
    let out = cmd.output().expect("case_budget runs");
    assert!(out.status.success(), "{}", stderr(&out));
    json_report(&out)
}

pub(crate) fn num(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

pub(crate) fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2] + v[(v.len() - 1) / 2]) / 2.0
}
