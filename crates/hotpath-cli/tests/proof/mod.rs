//! Builds the proof program (`program.rs`) once per test binary, as a crate depending on
//! this repository's `hotpath` like a user's would, in the target directory the git
//! tests share so that `hotpath` itself is compiled once.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub(crate) const CARGO_TOML: &str = r#"[package]
name = "proof-app"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
hotpath = { path = "HOTPATH" }

[features]
hotpath = ["hotpath/hotpath"]
hotpath-alloc = ["hotpath/hotpath-alloc"]
"#;

pub(crate) const MAIN_RS: &str = include_str!("program.rs");

/// Shared with `compare_git.rs`: the program's dependencies are built once.
pub(crate) fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("compare-e2e")
}

/// This repository's `hotpath` crate.
pub(crate) fn hotpath_crate() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../hotpath").canonicalize().unwrap()
}

/// Writes the program's crate into `dir`, depending on `hotpath` through `dependency`
/// (the text of the `path =` value).
pub(crate) fn write_crate(dir: &Path, dependency: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("Cargo.toml"), CARGO_TOML.replace("HOTPATH", dependency)).unwrap();
    // The workspace's lock file pins the same dependency versions, so nothing is fetched.
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN_RS).unwrap();
}

/// The built program (with `hotpath` and `hotpath-alloc`), built on first use.
pub(crate) fn binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("proof-app");
        write_crate(&dir, hotpath_crate().to_str().unwrap());
        let target = target_dir().join("proof");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .args(["build", "--quiet", "--features", "hotpath,hotpath-alloc"])
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .expect("cargo runs");
        assert!(out.status.success(), "build failed: {}", String::from_utf8_lossy(&out.stderr));
        target.join("debug/proof-app")
    })
}

/// Runs the program once with `env`, writing its JSON report to `report`.
pub(crate) fn run(report: &Path, env: &[(&str, &str)]) {
    let mut cmd = Command::new(binary());
    for (key, _) in std::env::vars() {
        if key.starts_with("HOTPATH_") || key.starts_with("PROOF_") {
            cmd.env_remove(key);
        }
    }
    cmd.env("HOTPATH_OUTPUT_FORMAT", "json")
        .env("HOTPATH_OUTPUT_PATH", report)
        .env("HOTPATH_LIMIT", "0")
        .env("HOTPATH_METRICS_SERVER_OFF", "1")
        .envs(env.iter().copied());
    let out = cmd.output().expect("the proof program runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(report.is_file(), "no report at {}", report.display());
}

/// Runs the program `n` times into `dir/<prefix>-NN.json` and returns the paths.
pub(crate) fn runs(dir: &Path, prefix: &str, n: usize, env: &[(&str, &str)]) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    (0..n)
        .map(|i| {
            let path = dir.join(format!("{prefix}-{:02}.json", i + 1));
            run(&path, env);
            path
        })
        .collect()
}
