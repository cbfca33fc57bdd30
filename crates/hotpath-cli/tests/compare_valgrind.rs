//! `hotpath compare --git --valgrind` end to end: a temporary git repository holds a
//! program with three independent measured functions, built with
//! `hotpath-callgrind`; its second commit makes `beta` do more work. Each side runs
//! once under real Callgrind, and exactly `beta` is flagged, without statistics. The
//! baseline against itself flags nothing: instruction counts repeat exactly.
#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const CARGO_TOML: &str = r#"[package]
name = "icount-app"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
hotpath = { path = "HOTPATH" }

[features]
hotpath-callgrind = ["hotpath/hotpath-callgrind"]
"#;

const MAIN_RS: &str = r#"use std::hint::black_box;

const BETA: u64 = 400;

#[hotpath::measure]
fn alpha(n: u64) -> u64 {
    (0..n).map(black_box).sum()
}

/// The function the second commit makes do more work.
#[hotpath::measure]
fn beta(n: u64) -> u64 {
    (0..n * BETA / 100).map(|i| black_box(i * 3)).sum()
}

#[hotpath::measure]
fn gamma(n: u64) -> u64 {
    (0..n).fold(1, |acc, i| black_box(acc ^ i))
}

#[hotpath::main]
fn main() {
    let mut total = 0u64;
    for i in 0..10 {
        total = total.wrapping_add(alpha(300 + i) + beta(100) + gamma(300));
    }
    println!("{total}");
}
"#;

fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=hotpath test", "-c", "user.email=test@hotpath.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The program at two commits; returns their hashes.
fn program_repo(dir: &Path) -> (String, String) {
    let hotpath = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hotpath").canonicalize().unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("Cargo.toml"), CARGO_TOML.replace("HOTPATH", hotpath.to_str().unwrap())).unwrap();
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join(".gitignore"), "/target\n").unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN_RS).unwrap();
    git(dir, &["init", "-q"]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "-qm", "baseline"]);
    let base = git(dir, &["rev-parse", "HEAD"]);
    std::fs::write(dir.join("src/main.rs"), MAIN_RS.replace("const BETA: u64 = 400;", "const BETA: u64 = 600;"))
        .unwrap();
    git(dir, &["commit", "-qam", "beta does 1.5 times the work"]);
    (base, git(dir, &["rev-parse", "HEAD"]))
}

fn compare(repo: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hotpath"));
    cmd.arg("compare").args(args).current_dir(repo);
    for (key, _) in std::env::vars() {
        if key.starts_with("HOTPATH_") || key == "CARGO_TARGET_DIR" || key.ends_with("_RUNNER") {
            cmd.env_remove(key);
        }
    }
    cmd.output().expect("hotpath runs")
}

/// Shared with the other `--git` test, so that dependencies are built once.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("compare-e2e")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}\nstderr: {}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    })
}

/// `(row, metric key, verdict)` of every compared metric.
fn verdicts(c: &Value) -> Vec<(String, String, String)> {
    let mut all = Vec::new();
    for section in c["sections"].as_array().unwrap() {
        assert_eq!(section["name"], "functions_icount", "only instruction counts are compared: {c:#}");
        for row in section["rows"].as_array().unwrap() {
            for m in row["metrics"].as_array().unwrap() {
                // Instruction counts and calls are exact; polls depend on scheduling.
                let exact = m["key"] != "polls";
                assert_eq!(m["judging"] == "exact", exact, "{m:#}");
                assert_eq!(m["method"], if exact { "exact" } else { "single_run" }, "{m:#}");
                let name = row["name"].as_str().unwrap().to_string();
                all.push((name, m["key"].as_str().unwrap().to_string(), m["verdict"].as_str().unwrap().to_string()));
            }
        }
    }
    all
}

#[test]
fn more_work_in_one_function_flags_exactly_that_function() {
    let dir = std::env::temp_dir().join(format!("hotpath-compare-valgrind-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let repo = dir.join("repo");
    let (base, head) = program_repo(&repo);
    let target = target_dir();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let command = ["--", &cargo, "run", "--quiet", "--features", "hotpath-callgrind"];
    let common = ["--valgrind", "--format", "json", "--fail-on-regression", "--target-dir", target.to_str().unwrap()];

    let mut args = vec!["--git", &base, &head];
    args.extend(common);
    args.extend(command);
    let out = compare(&repo, &args);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let c = json(&out);
    assert_eq!((c["base"]["runs"].as_u64(), c["head"]["runs"].as_u64()), (Some(1), Some(1)));
    assert_eq!(c["settings"]["icount_threshold_pct"], 1.0);
    let all = verdicts(&c);
    let flagged: Vec<_> = all.iter().filter(|(_, _, v)| v != "unchanged").collect();
    let beta = "icount_app::beta".to_string();
    let expected: Vec<(String, String, String)> = ["ir", "ir_per_call", "self_ir"]
        .iter()
        .map(|k| (beta.clone(), k.to_string(), "regressed".to_string()))
        .collect();
    assert_eq!(flagged, expected.iter().collect::<Vec<_>>(), "{c:#}");
    for name in ["icount_app::alpha", "icount_app::gamma"] {
        assert!(all.iter().any(|(n, k, _)| n == name && k == "ir"), "{name} compared: {c:#}");
    }

    // The baseline against itself: every count is the same, so nothing is flagged.
    let mut args = vec!["--git", &base, &base];
    args.extend(common);
    args.extend(command);
    let out = compare(&repo, &args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let all = verdicts(&json(&out));
    assert!(all.len() >= 9, "{all:?}");
    assert!(all.iter().all(|(_, _, v)| v == "unchanged"), "{all:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn valgrind_needs_git() {
    let dir = std::env::temp_dir();
    // Several runs per side are allowed (a count that differs between runs is then
    // tested instead of trusted); outside a repository --git still fails.
    let out = compare(&dir, &["--git", "a", "b", "--valgrind", "--runs", "3", "--", "true"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--git needs a git repository"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = compare(&dir, &["a.json", "b.json", "--valgrind"]);
    assert_eq!(out.status.code(), Some(2));
    let out = compare(&dir, &["a.json", "b.json", "--icount-threshold", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a percentage"));
}
