//! `hotpath compare --git` end to end, on a temporary real git repository holding a
//! small Rust program that depends on this repository's `hotpath`. Commit 1 is the
//! baseline; commit 2 makes `checksum` do 20 times the work (and allocate 20 times
//! more) and adds a function. Also: the runner's failures exit 2 and leave no
//! worktree behind. The program depends on `hotpath` through the README's relative
//! line (`path = "../hotpath/crates/hotpath"`), which the scratch worktrees resolve.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const CARGO_TOML: &str = r#"[package]
name = "e2e-app"
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

const MAIN_RS: &str = r#"use std::hint::black_box;

const ROUNDS: u64 = 400;
const SCRATCH: usize = 64;

/// The measured function that commit 2 makes slower and hungrier.
#[hotpath::measure]
fn checksum(data: &[u8]) -> u64 {
    let mut scratch: Vec<u64> = Vec::with_capacity(SCRATCH);
    let mut acc = 0u64;
    for round in 0..ROUNDS {
        for &b in data {
            acc = black_box(acc.wrapping_mul(31).wrapping_add(u64::from(b) ^ round));
        }
        scratch.push(acc);
    }
    black_box(&scratch);
    acc
}

#[hotpath::measure]
fn steady(n: u64) -> u64 {
    (0..n).map(|i| black_box(i) * 3).sum()
}

#[hotpath::main]
fn main() {
    let data: Vec<u8> = (0..256u32).map(|i| (i * 7) as u8).collect();
    let mut total = 0u64;
    for _ in 0..20 {
        total = total.wrapping_add(checksum(&data));
        total = total.wrapping_add(steady(20_000));
    }
    EXTRA
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

/// A repository with the program at two commits; returns their hashes. `hotpath` sits
/// beside it (a link to this repository), named by the README's relative path.
fn program_repo(dir: &Path) -> (String, String) {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::os::unix::fs::symlink(&workspace, dir.parent().unwrap().join("hotpath")).unwrap();
    std::fs::write(dir.join("Cargo.toml"), CARGO_TOML.replace("HOTPATH", "../hotpath/crates/hotpath")).unwrap();
    // The workspace's lock file pins the same dependency versions, so nothing is fetched.
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join(".gitignore"), "/target\n").unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN_RS.replace("    EXTRA\n", "")).unwrap();
    git(dir, &["init", "-q"]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "-qm", "baseline"]);
    let base = git(dir, &["rev-parse", "HEAD"]);
    let slower = MAIN_RS
        .replace("const ROUNDS: u64 = 400;", "const ROUNDS: u64 = 8_000;")
        .replace("const SCRATCH: usize = 64;", "const SCRATCH: usize = 64 * 20;")
        .replace("    EXTRA\n", "    added_in_head();\n")
        + "\n#[hotpath::measure]\nfn added_in_head() {}\n";
    std::fs::write(dir.join("src/main.rs"), slower).unwrap();
    git(dir, &["commit", "-qam", "checksum does 20x the work"]);
    (base, git(dir, &["rev-parse", "HEAD"]))
}

fn compare(repo: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hotpath"));
    cmd.arg("compare").args(args).current_dir(repo);
    for (key, _) in std::env::vars() {
        if key.starts_with("HOTPATH_") || key == "CARGO_TARGET_DIR" {
            cmd.env_remove(key);
        }
    }
    cmd.output().expect("hotpath runs")
}

/// Shared by every test run (and feature set), so the program's dependencies are built once.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("compare-e2e")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\nstderr: {}", String::from_utf8_lossy(&out.stdout), stderr(out)))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn section<'a>(c: &'a Value, name: &str) -> &'a Value {
    c["sections"].as_array().unwrap().iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("no {name} in {c:#}"))
}

fn row<'a>(section: &'a Value, name: &str) -> &'a Value {
    section["rows"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("no {name}"))
}

fn metric<'a>(row: &'a Value, key: &str) -> &'a Value {
    row["metrics"].as_array().unwrap().iter().find(|m| m["key"] == key).unwrap_or_else(|| panic!("no {key}"))
}

/// Only the main worktree is registered: the temporary ones were removed.
fn assert_no_worktree_left(repo: &Path) {
    let list = git(repo, &["worktree", "list", "--porcelain"]);
    assert_eq!(list.lines().filter(|l| l.starts_with("worktree ")).count(), 1, "{list}");
}

#[test]
fn a_slower_commit_is_flagged_and_a_commit_against_itself_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let (base, head) = program_repo(&repo);
    let target = target_dir();
    let reports = dir.path().join("reports");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let command = ["--", &cargo, "run", "--quiet", "--features", "hotpath,hotpath-alloc"];

    // Ten runs per side: with Holm over the program's tested metrics at alpha 0.01, five
    // could never be significant.
    let mut args = vec!["--git", &base, &head, "--runs", "10", "--format", "json", "--fail-on-regression"];
    args.extend(["--reports-dir", reports.to_str().unwrap(), "--target-dir", target.to_str().unwrap()]);
    args.extend(command);
    let out = compare(&repo, &args);
    assert_eq!(out.status.code(), Some(1), "a regression exits 1 with --fail-on-regression: {}", stderr(&out));
    let c = json(&out);
    assert_eq!((c["base"]["runs"].as_u64(), c["head"]["runs"].as_u64()), (Some(10), Some(10)));
    assert_eq!((c["base"]["label"].as_str(), c["head"]["label"].as_str()), (Some(&base[..10]), Some(&head[..10])));
    let timing = section(&c, "functions_timing");
    let checksum = row(timing, "e2e_app::checksum");
    // 20 times the work. On a loaded machine a run can be slowed by other processes, so
    // the median call must be at least 5 times slower, the mean and total at least 3 times.
    for (key, at_least_pct) in [("percentiles_ns.p50", 400.0), ("avg_ns", 200.0), ("total_ns", 200.0)] {
        let m = metric(checksum, key);
        assert_eq!((m["verdict"].as_str(), m["method"].as_str()), (Some("regressed"), Some("mann_whitney")), "{m:#}");
        assert!(m["adjusted_p"].as_f64().unwrap() <= 0.01, "{m:#}");
        assert!(m["change_pct"].as_f64().unwrap() >= at_least_pct, "{m:#}");
    }
    assert_eq!(metric(checksum, "calls")["verdict"], "unchanged");
    // Allocations are exact: 20 times the bytes is a regression without any statistics.
    let allocated = metric(row(section(&c, "functions_alloc"), "e2e_app::checksum"), "bytes_total");
    assert_eq!(
        (allocated["verdict"].as_str(), allocated["method"].as_str()),
        (Some("regressed"), Some("exact")),
        "{allocated:#}"
    );
    assert!(allocated["change_pct"].as_f64().unwrap() >= 1000.0, "{allocated:#}");
    assert_eq!(row(timing, "e2e_app::added_in_head")["status"], "added");
    assert_eq!(c["summary"]["removed_rows"], 0);
    let mut written: Vec<String> =
        std::fs::read_dir(&reports).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    written.sort();
    assert_eq!(written.len(), 20, "{written:?}");
    assert_eq!((written[0].as_str(), written[19].as_str()), ("base-01.json", "head-10.json"));
    assert_no_worktree_left(&repo);

    // The baseline against itself: every exact value (call counts; allocations when
    // the program profiles them) is unchanged. Two runs per side can never reach
    // significance, so timing noise cannot fail this either.
    let mut args = vec!["--git", &base, &base, "--runs", "2", "--format", "json", "--fail-on-regression"];
    args.extend(["--target-dir", target.to_str().unwrap()]);
    args.extend(command);
    let out = compare(&repo, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let c = json(&out);
    section(&c, "functions_alloc");
    let mut exact = 0;
    for s in c["sections"].as_array().unwrap() {
        for r in s["rows"].as_array().unwrap() {
            assert_eq!(r["status"], "compared", "{r:#}");
            for m in r["metrics"].as_array().unwrap().iter().filter(|m| m["method"] == "exact") {
                assert_eq!(m["verdict"], "unchanged", "{m:#}");
                exact += 1;
            }
        }
    }
    assert!(exact >= 2, "calls of checksum and steady were compared: {c:#}");
    assert!(c["notes"][0].as_str().unwrap().contains("smallest possible p-value"), "{}", c["notes"]);
    let notes = c["notes"].to_string();
    assert!(notes.contains("both refs are one commit: this is an A/A comparison"), "{notes}");
    assert_no_worktree_left(&repo);

    // The self-check at one commit: both sides' runs pooled and split.
    let mut args = vec!["--git", "HEAD", "HEAD", "--aa", "--runs", "2", "--format", "json"];
    args.extend(["--target-dir", target.to_str().unwrap()]);
    args.extend(command);
    let out = compare(&repo, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let check = json(&out);
    assert_eq!((check["runs"].as_u64(), check["runs_per_side"].as_u64()), (Some(4), Some(2)), "{check:#}");
    assert_eq!(check["alarmed"], 0, "{check:#}");
    assert_no_worktree_left(&repo);
}

/// A repository with two commits of a script, for the runner's failure paths: the
/// first writes a report, the second fails.
fn script_repo(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q"]);
    let report = r#"{"schema_version":1,"meta":{"hotpath_version":"0.23.0","caller":"s::main","pid":1,"started_unix_ms":0,"wall_ns":5,"ended_by":"main_returned","percentiles":[],"limit":0,"clock":"tsc","dropped":0},"functions_timing":{"total_functions":1,"rows":[{"name":"s::f","file":"s.rs","line":1,"is_async":false,"calls":1,"cancelled":0,"polls":0,"busy_ns":0,"total_ns":5,"self_ns":5,"avg_ns":5,"min_ns":5,"max_ns":5,"percentiles_ns":{}}]}}"#;
    std::fs::write(dir.join("run.sh"), format!("echo '{report}' > \"$HOTPATH_OUTPUT_PATH\"\n")).unwrap();
    git(dir, &["add", "."]);
    git(dir, &["commit", "-qm", "one"]);
    std::fs::write(dir.join("run.sh"), "echo compiling; echo 'error: it broke' >&2; exit 7\n").unwrap();
    git(dir, &["commit", "-qam", "two"]);
}

fn assert_fails(out: &Output, parts: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for part in parts {
        assert!(err.contains(part), "missing {part:?} in: {err}");
    }
    assert!(out.stdout.is_empty());
}

#[test]
fn runner_failures_exit_2_and_remove_the_worktrees() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    script_repo(&repo);

    // The head commit's command fails: its output is shown, the worktrees still go.
    let out = compare(&repo, &["--git", "HEAD~1", "HEAD", "--runs", "1", "--", "sh", "run.sh"]);
    assert_fails(
        &out,
        &["head run 1/1 at HEAD (", "`sh run.sh` failed (exit status: 7)", "error: it broke", "compiling"],
    );
    assert_no_worktree_left(&repo);

    // A command that writes no report.
    let out = compare(&repo, &["--git", "HEAD~1", "HEAD~1", "--runs", "1", "--", "true"]);
    assert_fails(&out, &["base run 1/1", "`true` wrote no report to ", "#[hotpath::main]"]);
    assert_no_worktree_left(&repo);

    // The script's report at both sides compares fine (and single-run).
    let out = compare(&repo, &["--git", "HEAD~1", "HEAD~1", "--runs", "1", "--", "sh", "run.sh"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("note: single run"));
    assert_no_worktree_left(&repo);

    // Refs that are not commits.
    let out = compare(&repo, &["--git", "no-such-branch", "HEAD", "--", "true"]);
    assert_fails(&out, &["BASE_REF: \"no-such-branch\" is not a commit of the repository"]);
    let out = compare(&repo, &["--git", "HEAD", "v9.9", "--", "true"]);
    assert_fails(&out, &["HEAD_REF: \"v9.9\" is not a commit of the repository"]);

    // --aa needs one commit.
    let out = compare(&repo, &["--git", "HEAD~1", "HEAD", "--aa", "--runs", "1", "--", "sh", "run.sh"]);
    assert_fails(&out, &["--aa compares one commit with itself", "give one ref twice"]);
    assert_no_worktree_left(&repo);

    // A relative path dependency that leaves the repository and exists nowhere.
    std::fs::write(repo.join("Cargo.toml"), "[dependencies]\nlib = { path = \"../nowhere\" }\n").unwrap();
    git(&repo, &["add", "Cargo.toml"]);
    git(&repo, &["commit", "-qm", "a dependency beside the repository"]);
    let out = compare(&repo, &["--git", "HEAD", "HEAD", "--runs", "1", "--", "sh", "run.sh"]);
    assert_fails(&out, &["Cargo.toml: dependency `lib` has path = \"../nowhere\"", "check that directory out there"]);
    assert_no_worktree_left(&repo);

    // Outside any repository.
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let out = compare(&outside, &["--git", "HEAD~1", "HEAD", "--", "true"]);
    assert_fails(&out, &["--git needs a git repository"]);
}
