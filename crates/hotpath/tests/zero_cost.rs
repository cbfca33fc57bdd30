//! A user crate built with the `hotpath` feature off compiles only hotpath and its
//! macros crate (no `syn`, no runtime), runs unchanged and prints no report; with the
//! feature on, the same code prints one. Also builds the specification's snippet
//! `#[hotpath::main] fn main() {}` both ways.

mod common;

use std::process::Output;

fn cargo(args: &[&str]) -> Output {
    let out = cargo_output(args);
    assert!(out.status.success(), "cargo {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    out
}

fn cargo_output(args: &[&str]) -> Output {
    common::fixtures::cargo("app", args)
        .env_remove("HOTPATH_OUTPUT_FORMAT")
        .env_remove("HOTPATH_OUTPUT_PATH")
        .output()
        .expect("cargo runs")
}

fn packages(features: &[&str]) -> Vec<String> {
    let mut args = vec!["tree", "--edges", "normal,build", "--prefix", "none", "--format", "{p}", "--quiet"];
    args.extend(features);
    let out = cargo(&args);
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn feature_off_compiles_only_the_facade_and_its_macros() {
    // hotpath-sections is the section list: macro_rules only, no code, no dependencies.
    assert_eq!(packages(&[]), ["fixture-app", "hotpath", "hotpath-macros", "hotpath-sections"]);
    let on = packages(&["--features", "hotpath"]);
    assert!(on.contains(&"hotpath-engine".to_string()) && on.contains(&"syn".to_string()), "{on:?}");
}

#[test]
fn annotated_code_runs_the_same_with_the_feature_off_and_on() {
    let off = cargo(&["run", "--quiet", "--bin", "fixture-app"]);
    assert_eq!(String::from_utf8_lossy(&off.stdout), "result=90\n");
    assert_eq!(String::from_utf8_lossy(&off.stderr), "");

    let on = cargo(&["run", "--quiet", "--bin", "fixture-app", "--features", "hotpath"]);
    let text = String::from_utf8_lossy(&on.stdout);
    assert!(text.starts_with("result=90\n[hotpath] Profile of fixture_app::main: "), "{text}");
    for row in ["| fixture_app::add ", "| doubling ", "| Acc::push ", "| total ", "| output "] {
        assert!(text.contains(row), "missing {row} in:\n{text}");
    }
    assert!(!text.contains("Acc::get"), "#[hotpath::skip] is honoured:\n{text}");
    for section in ["\nfutures - ", "\nchannels - ", "\nmutexes - ", "\nrw-locks - "] {
        assert!(text.contains(section), "missing {section} in:\n{text}");
    }
    for row in ["| zero ", "| results ", "| shared "] {
        assert!(text.contains(row), "missing {row} in:\n{text}");
    }
}

#[test]
fn tokio_runtime_off_needs_no_tokio_and_on_asks_for_the_feature() {
    // Off: compiles without Tokio in the tree, type-checks the handle, evaluates to `()`.
    let off = cargo(&["run", "--quiet", "--bin", "tokio_off"]);
    assert_eq!(String::from_utf8_lossy(&off.stdout), "workers=2 unit=()\n");
    // On without `hotpath/tokio`: a compile error that names the missing feature.
    let on = cargo_output(&["build", "--quiet", "--bin", "tokio_off", "--features", "hotpath"]);
    let err = String::from_utf8_lossy(&on.stderr);
    assert!(!on.status.success());
    assert!(err.contains("hotpath::tokio_runtime! needs hotpath's `tokio` feature"), "{err}");
    assert!(err.contains("src/bin/tokio_off.rs:13"), "the error points at the call: {err}");
}

#[test]
fn debug_trackers_off_need_no_debug_and_on_record() {
    let off = cargo(&["run", "--quiet", "--bin", "trackers"]);
    assert_eq!(String::from_utf8_lossy(&off.stdout), "job=7 b=2 key=job-7\n");
    assert_eq!(String::from_utf8_lossy(&off.stderr), "");
    let on = cargo(&["run", "--quiet", "--bin", "trackers", "--features", "hotpath"]);
    let text = String::from_utf8_lossy(&on.stdout);
    assert!(text.starts_with("job=7 b=2 key=job-7\n[hotpath] Profile of trackers::main: "), "{text}");
    for row in ["| Job(7)", "| job-7 ", "| depth "] {
        assert!(text.contains(row), "missing {row} in:\n{text}");
    }
}

#[test]
fn specification_snippet_runs_both_ways() {
    // The threads seed: `#[hotpath::main] fn main() {}` with its Cargo.toml features.
    let off = cargo(&["run", "--quiet", "--bin", "seed"]);
    assert_eq!(String::from_utf8_lossy(&off.stdout), "");
    let header = "threads - Thread CPU and memory statistics. (RSS: ";
    let on = cargo(&["run", "--quiet", "--bin", "seed", "--features", "hotpath"]);
    let text = String::from_utf8_lossy(&on.stdout);
    assert!(text.starts_with("[hotpath] Profile of seed::main: "), "{text}");
    let line = text.lines().find(|l| l.starts_with(header)).unwrap_or_else(|| panic!("{text}"));
    assert!(!line.contains("Alloc"), "no alloc figures without hotpath-alloc: {line}");
    let columns = |text: &str| -> Vec<String> {
        let header = text.lines().find(|l| l.starts_with("| Thread ")).unwrap_or_else(|| panic!("{text}"));
        header.split('|').map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect()
    };
    assert_eq!(columns(&text), ["Thread", "Status", "CPU%", "Max%", "CPU User", "CPU Sys", "CPU Total"]);

    let on = cargo(&["run", "--quiet", "--bin", "seed", "--features", "hotpath,hotpath-alloc"]);
    let text = String::from_utf8_lossy(&on.stdout);
    let line = text.lines().find(|l| l.starts_with(header)).unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains(", Alloc: ") && line.contains(", Dealloc: ") && line.contains(", Diff: "), "{line}");
    assert_eq!(
        columns(&text),
        ["Thread", "Status", "CPU%", "Max%", "CPU User", "CPU Sys", "CPU Total", "Alloc", "Dealloc", "Diff"]
    );
}
