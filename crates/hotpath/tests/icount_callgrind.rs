//! Instruction counts (`hotpath-callgrind`) with the real Valgrind: the program of
//! `tests/programs/icount.rs` runs under `valgrind --tool=callgrind`, and each
//! function's count must be what `callgrind_annotate --inclusive=yes` reports for its
//! marker in the same dump (within 1%; they are read from the same numbers). Also:
//! exact call counts, self counts, the same counts on every run, calls counted but
//! not timed in functions-timing, the one-line note
//! natively and under another Valgrind tool, and HOTPATH_MERGE_REPORT.
#![cfg(all(feature = "hotpath-callgrind", target_os = "linux", target_arch = "x86_64"))]

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::{command, example, json_report, run, stderr, stdout};
use serde_json::Value;

/// A scratch directory for dumps and reports, removed afterwards.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("hotpath-icount-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The example under Valgrind with `tool`, dumps in `dir`, JSON on stdout.
fn under_valgrind(tool: &str, dir: &Path, env: &[(&str, &str)]) -> Output {
    let out = valgrind(tool, dir, env).output().expect("valgrind runs (scripts/test installs it)");
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

fn valgrind(tool: &str, dir: &Path, env: &[(&str, &str)]) -> Command {
    let out_file = dir.join("cg.%p");
    let mut cmd = Command::new("valgrind");
    cmd.arg(format!("--tool={tool}")).arg("--quiet");
    if tool == "callgrind" {
        cmd.arg(format!("--callgrind-out-file={}", out_file.display()));
    }
    cmd.arg(example("case_icount"));
    for (key, _) in std::env::vars() {
        if key.starts_with("HOTPATH_") {
            cmd.env_remove(key);
        }
    }
    cmd.env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_LIMIT", "0");
    cmd.env("HOTPATH_CALLGRIND_OUT_FILE", &out_file);
    cmd.envs(env.iter().copied());
    cmd
}

fn rows(report: &Value) -> &Vec<Value> {
    report["functions_icount"]["rows"].as_array().unwrap_or_else(|| panic!("no icount rows in {report:#}"))
}

fn row<'a>(report: &'a Value, name: &str) -> &'a Value {
    rows(report).iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("no icount row {name} in {report:#}"))
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// `callgrind_annotate --inclusive=yes` of a dump: inclusive Ir per marker, keyed by
/// the path of the function the marker is nested in (`case_icount::parent`). Run
/// outside the source tree: it shortens file names under its working directory, but
/// not all of them, and would list a function twice.
fn annotate(dump: &str, outside: &Path) -> HashMap<String, u64> {
    let out = Command::new("callgrind_annotate")
        .args(["--inclusive=yes", "--threshold=100", "--auto=no", dump])
        .current_dir(outside)
        .output()
        .expect("callgrind_annotate runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let mut markers = HashMap::new();
    for line in stdout(&out).lines() {
        // "  458,460 (39.74%)  /path/icount.rs:case_icount::parent::__hotpath_cg_c05f.. [/path/case_icount]"
        let Some((count, rest)) = line.trim_start().split_once(" (") else { continue };
        let Ok(ir) = count.replace(',', "").parse::<u64>() else { continue };
        let Some((_, function)) = rest.split_once("%)") else { continue };
        let function = function.trim();
        if function.starts_with("=>") || function.starts_with('<') {
            continue; // call lines of a tree, not a function's total
        }
        let function = function.rsplit_once(" [").map_or(function, |(f, _)| f);
        let Some((_, function)) = function.split_once(':') else { continue };
        let Some((path, _tag)) = function.split_once("::__hotpath_cg_") else { continue };
        // Only the outermost level of a marker (deeper recursion is `marker'2`), and not
        // functions that merely name it in their generic arguments.
        if path.contains('<') || function.ends_with("'2") {
            continue;
        }
        *markers.entry(path.trim_end_matches("::{{closure}}").to_string()).or_default() += ir;
    }
    markers
}

#[test]
fn counts_match_callgrind_annotate_and_repeat_exactly() {
    let dir = Scratch::new("annotate");
    let out = under_valgrind("callgrind", dir.path(), &[]);
    let report = json_report(&out);
    let icount = &report["functions_icount"];
    assert!(icount.get("note").is_none(), "{icount:#}");
    assert!(icount["tool"].as_str().unwrap().starts_with("callgrind-"), "{icount:#}");
    assert_eq!(report["meta"]["clock"], "frozen");
    // Durations are not measured under Callgrind: calls are counted, none is timed.
    assert_eq!(report["meta"]["time_sampling"]["functions"], 0.0, "{:#}", report["meta"]);
    let timing = common::row(&report, "case_icount::parent");
    assert_eq!((u(&timing["calls"]), u(&timing["timed_calls"])), (10, 0), "{timing:#}");

    // Every function agrees with callgrind_annotate's inclusive count of its marker.
    let dump = icount["dump_file"].as_str().unwrap();
    let annotated = annotate(dump, dir.path());
    let mut compared = 0;
    for r in rows(&report) {
        let name = r["name"].as_str().unwrap();
        let key = if name == "counted_block" { "case_icount::main" } else { name };
        let theirs = annotated.get(key).copied().unwrap_or_else(|| panic!("{key} not in {annotated:#?}"));
        let ours = u(&r["ir"]);
        assert!(ours.abs_diff(theirs) * 100 <= theirs, "{name}: hotpath {ours} Ir, callgrind_annotate {theirs} Ir");
        compared += 1;
    }
    assert_eq!(compared, 9, "{annotated:#?}");

    // Calls are exact; async functions count completed calls and their polls.
    let calls = |name: &str| u(&row(&report, &format!("case_icount::{name}"))["calls"]);
    assert_eq!(
        [calls("parent"), calls("leaf"), calls("recursive"), calls("generic"), calls("parse_first")],
        [10, 21, 6, 8, 2]
    );
    let work = row(&report, "case_icount::work_async");
    assert_eq!((u(&work["calls"]), u(&work["polls"]), work["is_async"].as_bool()), (3, 6, Some(true)));
    assert_eq!(u(&row(&report, "counted_block")["calls"]), 1);
    let early = icount["uncounted"].as_array().unwrap();
    assert!(early.len() == 1 && early[0].as_str().unwrap().starts_with("early_exit: "), "{icount:#}");

    // Self: all of a leaf; a parent without the leaf calls made inside it (directly or
    // through an unmeasured helper). `counted_block` is the leaf's only other caller.
    let (leaf, parent, block) =
        (row(&report, "case_icount::leaf"), row(&report, "case_icount::parent"), row(&report, "counted_block"));
    assert_eq!(u(&leaf["self_ir"]), u(&leaf["ir"]));
    let leaf_in_block = u(&block["ir"]) - u(&block["self_ir"]);
    let leaf_in_parent = u(&leaf["ir"]) - leaf_in_block;
    assert_eq!(u(&parent["self_ir"]), u(&parent["ir"]) - leaf_in_parent, "{parent:#}");
    assert_eq!(u(&parent["ir_per_call"]), u(&parent["ir"]) / 10);

    // The same program counts the same instructions every time.
    let again = json_report(&under_valgrind("callgrind", dir.path(), &[]));
    assert_eq!(report["functions_icount"]["rows"], again["functions_icount"]["rows"]);
}

#[test]
fn without_callgrind_the_section_says_why() {
    let out = run(&mut command("case_icount"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\nfunctions-icount - not running under valgrind --tool=callgrind\n"),
        "{}",
        stdout(&out)
    );
    let report = json_report(&run(command("case_icount").env("HOTPATH_OUTPUT_FORMAT", "json")));
    assert_eq!(report["functions_icount"]["note"], "not running under valgrind --tool=callgrind");
    assert!(report["functions_timing"]["rows"].as_array().is_some_and(|r| !r.is_empty()));

    let dir = Scratch::new("none");
    let report = json_report(&under_valgrind("none", dir.path(), &[]));
    assert_eq!(
        report["functions_icount"]["note"],
        "running under Valgrind, but not its Callgrind tool (valgrind --tool=callgrind)"
    );
}

#[test]
fn a_callgrind_run_merges_its_counts_into_a_native_report() {
    let dir = Scratch::new("merge");
    let merged = dir.path().join("report.json");
    let native = run(command("case_icount").env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_OUTPUT_PATH", &merged));
    assert!(native.status.success(), "{}", stderr(&native));
    let path = merged.to_str().unwrap();
    let out = under_valgrind("callgrind", dir.path(), &[("HOTPATH_MERGE_REPORT", path), ("HOTPATH_OUTPUT_PATH", path)]);
    assert!(!stderr(&out).contains("HOTPATH_MERGE_REPORT"), "{}", stderr(&out));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&merged).unwrap()).unwrap();
    assert_ne!(report["meta"]["clock"], "frozen", "the native run's meta stays");
    assert!(u(&common::row(&report, "case_icount::parent")["total_ns"]) > 0, "native timings stay");
    assert!(u(&row(&report, "case_icount::parent")["ir"]) > 0, "instruction counts are added");

    // A report of another program is refused with one line; this run's report is kept.
    let other = dir.path().join("other.json");
    std::fs::write(&other, std::fs::read_to_string(&merged).unwrap().replace("case_icount::main", "other::main"))
        .unwrap();
    let out = under_valgrind("callgrind", dir.path(), &[("HOTPATH_MERGE_REPORT", other.to_str().unwrap())]);
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("HOTPATH_MERGE_REPORT")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(warnings[0].contains("is a report of other::main, this run profiles case_icount::main"), "{warnings:?}");
    let report = json_report(&out);
    assert!(u(&row(&report, "case_icount::parent")["ir"]) > 0);
    assert_eq!(report["meta"]["clock"], "frozen");
}

#[test]
fn the_callgrind_table_shows_counts_and_instructions_only_under_one_naming_rule() {
    let dir = Scratch::new("table");
    let out = under_valgrind("callgrind", dir.path(), &[("HOTPATH_OUTPUT_FORMAT", "table")]);
    let text = stdout(&out);
    // No duration anywhere: not the wall time, not main's, not a row's zero.
    assert!(text.contains("under Callgrind") && !text.contains("wall time"), "{text}");
    for unit in [" ns ", " µs ", " ms ", " s |", "time sampling", "timed)"] {
        assert!(!text.contains(unit), "{unit:?} in:\n{text}");
    }
    assert_eq!(common::table_columns(&text), ["Function", "Calls"], "functions-timing first:\n{text}");
    assert_eq!(common::table_row(&text, "case_icount::main"), ["case_icount::main", "1"]);
    let futures = common::table_columns_named(&text, "| Future");
    assert_eq!(futures, ["Future", "Kind", "Calls", "Cancelled", "Polls"], "{text}");
    // Polls are counted although no call is timed: three calls of two polls each.
    let cells = |l: &str| l.split('|').map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect::<Vec<_>>();
    let polled = text.lines().map(cells).find(|c| c.len() == 5 && c[0] == "case_icount::work_async");
    assert_eq!(polled.as_ref().map(|c| (&c[2][..], &c[4][..])), Some(("3", "6")), "{text}");
    // One name per function in every table: the default two path segments.
    assert!(!text.contains("case_icount::Worker::evens"), "{text}");
    let named = |name: &str| text.lines().filter(|l| l.starts_with(&format!("| {name} "))).count();
    assert_eq!(named("Worker::evens"), 2, "timing and icount:\n{text}");
    assert_eq!(named("case_icount::work_async"), 3, "timing, icount and futures:\n{text}");

    // HOTPATH_METRICS_SERVER_ON: the live server runs under Valgrind too.
    let out =
        under_valgrind("callgrind", dir.path(), &[("HOTPATH_METRICS_SERVER_ON", "1"), ("HOTPATH_METRICS_PORT", "0")]);
    assert!(stderr(&out).contains("metrics server listening on http://127.0.0.1:"), "{}", stderr(&out));
}

/// `HOTPATH_MERGE_REPORT` naming a FIFO nobody writes, or a file over the bound: one
/// warning, no wait for a writer, nothing read, and this run's report is written.
#[test]
fn a_fifo_or_an_oversized_file_is_refused_before_it_is_opened() {
    let dir = Scratch::new("refused");
    let fifo = dir.path().join("fifo.json");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let big = dir.path().join("big.json");
    std::fs::File::create(&big).unwrap().set_len(40 << 20).unwrap();
    for (path, why) in [(&fifo, "not a regular file"), (&big, "40.0 MiB, over the 32 MiB limit for a merged report")] {
        let output = dir.path().join("report.json");
        let mut child = valgrind(
            "callgrind",
            dir.path(),
            &[("HOTPATH_MERGE_REPORT", path.to_str().unwrap()), ("HOTPATH_OUTPUT_PATH", output.to_str().unwrap())],
        )
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("valgrind runs");
        let err = common::bounded::lines(child.stderr.take().unwrap());
        let status = common::bounded::wait(&mut child, Duration::from_secs(120), "the merge of a refused file");
        let err = common::bounded::rest(&err, Duration::from_secs(5));
        assert!(status.success(), "{err:?}");
        let warnings: Vec<&String> = err.iter().filter(|l| l.contains("HOTPATH_MERGE_REPORT")).collect();
        assert_eq!(warnings.len(), 1, "{err:?}");
        assert!(warnings[0].contains(&format!("cannot read {}: {why}", path.display())), "{warnings:?}");
        let report: Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
        assert!(u(&row(&report, "case_icount::parent")["ir"]) > 0, "this run's report is written");
    }
}
