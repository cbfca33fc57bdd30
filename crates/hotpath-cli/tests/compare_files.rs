//! `hotpath compare BASE HEAD` on report files written here: exit codes, the
//! generic comparison of sections this build has no types for, and every kind of
//! bad input (each must exit 2 with an error naming the file and the problem).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

fn hotpath(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hotpath")).arg("compare").args(args).output().expect("hotpath runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The output with runs of spaces squashed, so that table cells compare without padding.
fn squashed(out: &Output) -> String {
    let text = stdout(out);
    text.lines()
        .map(|l| l.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A schema-1 report: timing rows `(name, avg_ns)` and, if given, a `custom_alloc`
/// section (a section this build has no type for) with rows `(name, bytes, count)`.
fn report(timing: &[(&str, u64)], alloc: Option<&[(&str, u64, u64)]>) -> Value {
    let rows: Vec<Value> = timing
        .iter()
        .map(|(name, avg)| {
            json!({"name": name, "file": "src/main.rs", "line": 1, "is_async": false, "calls": 10,
                   "cancelled": 0, "polls": 0, "busy_ns": 0, "total_ns": avg * 10, "self_ns": avg * 10,
                   "avg_ns": avg, "min_ns": avg, "max_ns": avg, "percentiles_ns": {"p50": avg, "p95": avg}})
        })
        .collect();
    let mut r = json!({
        "schema_version": 1,
        "meta": {"hotpath_version": "0.23.0", "caller": "app::main", "pid": 1, "started_unix_ms": 0,
                 "wall_ns": 1_000_000, "ended_by": "main_returned", "percentiles": [50.0, 95.0], "limit": 0,
                 "clock": "tsc", "dropped": 0, "warnings": []},
        "functions_timing": {"total_functions": rows.len(), "rows": rows}
    });
    if let Some(alloc) = alloc {
        let rows: Vec<Value> = alloc
            .iter()
            .map(|(name, bytes, count)| json!({"name": name, "alloc_bytes": bytes, "alloc_count": count, "line": 1}))
            .collect();
        r["custom_alloc"] = json!({"total_functions": rows.len(), "rows": rows});
    }
    r
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn assert_input_error(out: &Output, parts: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(err.starts_with("error: "), "{err}");
    for part in parts {
        assert!(err.contains(part), "missing {part:?} in: {err}");
    }
    assert!(stdout(out).is_empty(), "nothing is compared: {}", stdout(out));
}

#[test]
fn a_single_run_never_calls_noise_a_regression() {
    let dir = tempfile::tempdir().unwrap();
    // 17 ns against 22 ns: one run per side says nothing about the spread.
    let base = write(dir.path(), "base.json", &report(&[("app::f", 17), ("app::g", 500)], None).to_string());
    let head = write(dir.path(), "head.json", &report(&[("app::f", 22), ("app::g", 500)], None).to_string());
    // No noise floor: the 5 ns change is beyond every threshold, and still no regression.
    let out = hotpath(&[arg(&base), arg(&head), "--fail-on-regression", "--noise-floor-ns", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = squashed(&out);
    assert!(!text.contains("REGRESSED"), "{text}");
    assert!(text.contains("| app::f | avg, p50, p95 | 17 ns | 22 ns | +29.4% | inconclusive (single run) |"), "{text}");
    assert!(text.contains("| app::f | total, self | 170 ns | 220 ns | +29.4% | inconclusive (single run) |"), "{text}");
    assert!(text.contains("note: single run: 1 base and 1 head run(s)"), "{text}");
    assert!(text.contains("note: section 'run' is no report section: it is the whole run"), "{text}");
    assert!(!text.contains("app::g"), "unchanged rows are not listed:\n{text}");
    assert!(text.contains("Result: no regression: 0 regressed metrics"), "{text}");
    // Exact values still regress with one run per side.
    let bytes = |n| report(&[("app::f", 17)], Some(&[("app::f", n, 4)])).to_string();
    let (base, head) = (write(dir.path(), "b2.json", &bytes(4096)), write(dir.path(), "h2.json", &bytes(8192)));
    let out = hotpath(&[arg(&base), arg(&head), "--fail-on-regression"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(squashed(&out).contains("| app::f | alloc_bytes | 4.0 KB | 8.0 KB | +100% (2.0x) | REGRESSED (exact) |"));
}

#[test]
fn help_explains_verdicts_and_the_run_section() {
    let out = hotpath(&["--help"]);
    let help = stdout(&out);
    assert!(help.contains("Section 'run' is no report section"), "{help}");
    assert!(help.contains("'inconclusive', never 'regressed'"), "{help}");
    assert!(help.contains("--max-input-mb <MB>"), "{help}");
}

#[test]
fn rates_print_with_units_and_async_functions_are_compared_once() {
    let dir = tempfile::tempdir().unwrap();
    let with = |rate: f64, async_wall: u64| {
        let mut r = report(&[("app::f", 1_000)], None);
        r["functions_timing"]["rows"][0]["is_async"] = json!(true);
        let wall = json!({"count": 1, "total_ns": async_wall, "avg_ns": async_wall, "max_ns": async_wall, "percentiles_ns": {}});
        r["futures"] = json!({"total_futures": 2, "rows": [
            {"name": "app::f", "file": "a.rs", "line": 1, "kind": "async_fn", "calls": 1, "cancelled": 0,
             "polls": 1, "busy_ns": 1, "wall": wall},
            {"name": "rows", "file": "a.rs", "line": 2, "kind": "future", "calls": 1, "cancelled": 0,
             "polls": 1, "busy_ns": 1, "wall": wall}]});
        r["streams"] = json!({"total_streams": 1, "rows": [{"name": "rows", "file": "a.rs", "line": 3,
            "item_type": "R", "instances": 1, "active": 0, "completed": 1, "cancelled": 0, "items": 9,
            "lifetime_ns": 1, "items_per_sec": rate,
            "item_interval": {"count": 1, "total_ns": 1, "avg_ns": 1, "max_ns": 1, "percentiles_ns": {}}}]});
        r.to_string()
    };
    let base = write(dir.path(), "base.json", &with(16_305_862.0, 100));
    let head = write(dir.path(), "head.json", &with(1_288_490.0, 900));
    let out = hotpath(&[arg(&base), arg(&head)]);
    let text = squashed(&out);
    assert!(
        text.contains("| rows | items_per_sec | 16.31 M/s | 1.29 M/s | -92.1% | inconclusive (single run) |"),
        "{text}"
    );
    assert!(!text.contains("16305862"), "{text}");
    assert!(
        text.contains("note: 1 #[measure] async function(s) appear in both functions_timing and futures"),
        "{text}"
    );
    let futures = text.split("\nfutures - ").nth(1).unwrap_or_default();
    assert!(futures.starts_with("1 row(s)") && !futures.split("\n\n").next().unwrap().contains("app::f"), "{text}");
}

#[test]
fn globs_directories_and_several_runs_use_the_statistical_test() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("head")).unwrap();
    // Eight runs per side: with Holm over the tested metrics at alpha 0.01, five could
    // never be significant.
    for i in 0..8u64 {
        write(dir.path(), &format!("base-{i}.json"), &report(&[("app::f", 1_000 + i)], None).to_string());
        write(&dir.path().join("head"), &format!("{i}.json"), &report(&[("app::f", 3_000 + i)], None).to_string());
    }
    let glob = format!("{}/base-*.json", arg(dir.path()));
    let out = hotpath(&[&glob, arg(&dir.path().join("head")), "--format", "json", "--fail-on-regression"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let c: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!((c["base"]["runs"].as_u64(), c["head"]["runs"].as_u64()), (Some(8), Some(8)));
    let timing = c["sections"].as_array().unwrap().iter().find(|s| s["name"] == "functions_timing").unwrap();
    let avg = timing["rows"][0]["metrics"].as_array().unwrap().iter().find(|m| m["key"] == "avg_ns").unwrap();
    assert_eq!(avg["verdict"], "regressed");
    assert_eq!(avg["method"], "mann_whitney");
    assert!((avg["p_value"].as_f64().unwrap() - 2.0 / 12_870.0).abs() < 1e-12, "{avg}");
    let tested = c["settings"]["tested_metrics"].as_f64().unwrap();
    assert!((avg["adjusted_p"].as_f64().unwrap() - tested * 2.0 / 12_870.0).abs() < 1e-9, "Holm: {avg}");
    assert_eq!(avg["base"]["values"].as_array().unwrap().len(), 8);
}

#[test]
fn sections_without_a_type_are_compared_exactly_by_field_name() {
    let dir = tempfile::tempdir().unwrap();
    let timing = [("app::f", 1_000)];
    let base = write(dir.path(), "base.json", &report(&timing, Some(&[("app::f", 4_096, 4)])).to_string());
    let head = write(dir.path(), "head.json", &report(&timing, Some(&[("app::f", 65_536, 64)])).to_string());
    let out = hotpath(&[arg(&base), arg(&head), "--fail-on-regression"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = squashed(&out);
    assert!(text.contains("custom-alloc - 1 row(s)"), "{text}");
    assert!(
        text.contains("| app::f | alloc_bytes | 4.0 KB | 64.0 KB | +1500% (16.0x) | REGRESSED (exact) |"),
        "{text}"
    );
    assert!(text.contains("| app::f | alloc_count | 4 | 64 | +1500% (16.0x) | REGRESSED (exact) |"), "{text}");

    // The same allocations: exact comparison finds no change, whatever the timing does.
    let same = write(dir.path(), "same.json", &report(&[("app::f", 9_000)], Some(&[("app::f", 4_096, 4)])).to_string());
    let out = hotpath(&[arg(&base), arg(&same), "--format", "json"]);
    let c: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let alloc = c["sections"].as_array().unwrap().iter().find(|s| s["name"] == "custom_alloc").unwrap();
    let verdicts: Vec<(&str, &str, &str)> = alloc["rows"][0]["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["key"].as_str().unwrap(), m["method"].as_str().unwrap(), m["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(verdicts, [("alloc_bytes", "exact", "unchanged"), ("alloc_count", "exact", "unchanged")]);
}

#[test]
fn markdown_goes_to_the_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let base = write(dir.path(), "base.json", &report(&[("app::f", 1_000)], None).to_string());
    let md = dir.path().join("comment.md");
    let out = hotpath(&[arg(&base), arg(&base), "--format", "markdown", "--output", arg(&md)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.starts_with("### hotpath performance comparison\n\n**:white_check_mark: No regression**"), "{text}");
}

#[test]
fn a_missing_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.json", &report(&[("app::f", 1)], None).to_string());
    let missing = dir.path().join("missing.json");
    let out = hotpath(&[arg(&missing), arg(&good)]);
    assert_input_error(&out, &[&format!("cannot read base report {}", missing.display()), "No such file"]);
}

#[test]
fn a_glob_matching_nothing_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.json", &report(&[("app::f", 1)], None).to_string());
    let pattern = format!("{}/head-*.json", arg(dir.path()));
    let out = hotpath(&[arg(&good), &pattern]);
    assert_input_error(&out, &[&format!("head: pattern {pattern} matched no file")]);
}

#[test]
fn a_directory_without_reports_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.json", &report(&[("app::f", 1)], None).to_string());
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = hotpath(&[arg(&empty), arg(&good)]);
    assert_input_error(&out, &[&format!("base: directory {} holds no .json report", empty.display())]);
}

#[test]
fn corrupt_json_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.json", &report(&[("app::f", 1)], None).to_string());
    let text = report(&[("app::f", 1)], None).to_string();
    let cut = write(dir.path(), "cut.json", &text[..text.len() / 2]);
    let out = hotpath(&[arg(&good), arg(&cut)]);
    assert_input_error(&out, &[&format!("head report {}: not a valid hotpath JSON report", cut.display()), "EOF"]);

    let mut wrong = report(&[("app::f", 1)], None);
    wrong["functions_timing"]["rows"][0]["calls"] = json!("ten");
    let wrong = write(dir.path(), "wrong.json", &wrong.to_string());
    let out = hotpath(&[arg(&wrong), arg(&good)]);
    assert_input_error(
        &out,
        &[&format!("base report {}: not a valid hotpath JSON report", wrong.display()), "\"ten\""],
    );

    let other = write(dir.path(), "other.json", r#"{"name": "not a report"}"#);
    let out = hotpath(&[arg(&good), arg(&other)]);
    assert_input_error(
        &out,
        &[&format!("head report {}: not a hotpath JSON report: no schema_version", other.display())],
    );
}

#[test]
fn another_schema_version_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.json", &report(&[("app::f", 1)], None).to_string());
    let mut future = report(&[("app::f", 1)], None);
    future["schema_version"] = json!(2);
    let future = write(dir.path(), "future.json", &future.to_string());
    let out = hotpath(&[arg(&good), arg(&future)]);
    assert_input_error(
        &out,
        &[&format!("head report {}: report has schema_version 2, this hotpath reads version 1", future.display())],
    );
}

#[test]
fn an_empty_side_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.json", &report(&[("app::f", 1)], None).to_string());
    let mut empty = report(&[], None);
    empty.as_object_mut().unwrap().remove("functions_timing");
    let empty = write(dir.path(), "empty.json", &empty.to_string());
    let out = hotpath(&[arg(&empty), arg(&good)]);
    assert_input_error(&out, &[&format!("base: no measurements in {}", empty.display()), "`hotpath` feature"]);
}

#[test]
fn bad_arguments_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.json", &report(&[("app::f", 1)], None).to_string());
    for args in [
        vec![arg(&good)],
        vec![arg(&good), arg(&good), "--threshold", "-5"],
        vec![arg(&good), arg(&good), "--alpha", "1.5"],
        vec![arg(&good), arg(&good), "--format", "xml"],
        vec![arg(&good), arg(&good), "--runs", "3"],
        vec!["--git", "main"],
        vec!["--git", "main", "HEAD"],
    ] {
        let out = hotpath(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn hostile_row_names_stay_inert_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["evil\n| fake | row |", "<script>alert(1)</script>", "\u{1b}]0;pwned\u{7}\u{1b}[2J"];
    let side = |bytes: u64| {
        let alloc: Vec<(&str, u64, u64)> = names.iter().map(|n| (*n, bytes, 1)).collect();
        report(&[("app::f", 1_000)], Some(&alloc)).to_string()
    };
    let (base, head) = (write(dir.path(), "base.json", &side(4096)), write(dir.path(), "head.json", &side(8192)));
    let table = stdout(&hotpath(&[arg(&base), arg(&head)]));
    assert!(!table.contains('\u{1b}') && !table.contains('\u{7}'), "{table:?}");
    assert!(table.contains("evil\\n| fake | row |") && table.contains("\\u{1b}]0;pwned\\u{7}\\u{1b}[2J"), "{table}");
    let markdown = stdout(&hotpath(&[arg(&base), arg(&head), "--format", "markdown"]));
    assert!(!markdown.contains('\u{1b}'), "{markdown:?}");
    for line in markdown.lines().filter(|l| l.starts_with('|')) {
        assert_eq!(line.replace("\\|", "").matches('|').count(), 8, "one row of seven cells: {line}");
    }
    assert!(markdown.contains("| `<script>alert(1)</script>` |"), "HTML only inside a code span: {markdown}");
    // JSON keeps the names exactly; its string escaping makes them inert.
    let json: Value = serde_json::from_str(&stdout(&hotpath(&[arg(&base), arg(&head), "--format", "json"]))).unwrap();
    let alloc = json["sections"].as_array().unwrap().iter().find(|s| s["name"] == "custom_alloc").unwrap();
    let got: Vec<&str> = alloc["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(got, names);
}
