//! Helpers shared by the integration tests: locating and running the scenario
//! programs that `cargo test` builds as examples, and reading their reports.
#![allow(dead_code)]

pub(crate) mod bounded;
pub(crate) mod budget;
pub(crate) mod fixtures;
pub(crate) mod live;

use std::path::PathBuf;
use std::process::{Command, Output};

/// Path of an example binary built for this test run (target/<profile>/examples/NAME).
pub(crate) fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>");
    let path = profile_dir.join("examples").join(name);
    assert!(path.exists(), "{} was not built; run through `cargo test`", path.display());
    path
}

/// A command for an example, with every HOTPATH_* variable of the caller removed
/// and the metrics server off (parallel tests would all want port 6770).
pub(crate) fn command(name: &str) -> Command {
    let mut cmd = Command::new(example(name));
    for (key, _) in std::env::vars() {
        if key.starts_with("HOTPATH_") {
            cmd.env_remove(key);
        }
    }
    cmd.env("HOTPATH_METRICS_SERVER_OFF", "1");
    cmd
}

/// Runs to completion and returns the output.
pub(crate) fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("example runs")
}

pub(crate) fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The JSON report printed on stdout (the last line that parses as a report).
pub(crate) fn json_report(out: &Output) -> serde_json::Value {
    stdout(out)
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok().filter(|v| v.get("schema_version").is_some()))
        .unwrap_or_else(|| panic!("no JSON report in stdout:\n{}\nstderr:\n{}", stdout(out), stderr(out)))
}

/// The `functions_timing` row named `name`.
pub(crate) fn row<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["functions_timing"]["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["name"] == name))
        .unwrap_or_else(|| panic!("no row {name} in {report:#}"))
}

/// Column names of the first table whose header starts with `| Function`.
pub(crate) fn table_columns(text: &str) -> Vec<String> {
    table_columns_named(text, "| Function")
}

/// Column names of the first table whose header line starts with `start`.
pub(crate) fn table_columns_named(text: &str, start: &str) -> Vec<String> {
    let header = text.lines().find(|l| l.starts_with(start)).unwrap_or_else(|| panic!("no {start} table in:\n{text}"));
    header.split('|').map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect()
}

/// Cells of the table row whose first cell is `name`.
pub(crate) fn table_row(text: &str, name: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('|').map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect::<Vec<_>>())
        .find(|cells| cells.first().is_some_and(|c| c == name))
        .unwrap_or_else(|| panic!("no row {name} in:\n{text}"))
}

/// The `io` row named `name` of a JSON report.
pub(crate) fn io_row<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["io"]["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["name"] == name))
        .unwrap_or_else(|| panic!("no io row {name} in {report:#}"))
}

/// Rows of the text table whose header has a column named `column` (the io section
/// prints a Reads table and a Writes table, told apart by that column).
pub(crate) fn table_with_column(text: &str, column: &str) -> Vec<Vec<String>> {
    let cells = |l: &str| l.split('|').map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect::<Vec<_>>();
    let mut lines = text.lines().skip_while(|l| !(l.starts_with('|') && cells(l).iter().any(|c| c == column)));
    let Some(header) = lines.next() else { return Vec::new() };
    let mut rows = vec![cells(header)];
    for line in lines {
        if line.starts_with('|') {
            if cells(line).iter().any(|c| c == "Io") {
                break; // the next table's header
            }
            rows.push(cells(line));
        } else if !line.starts_with('+') {
            break;
        }
    }
    rows
}

/// Logs a result for a behaviour comparison (see `same_behaviour!`).
pub(crate) fn rec<T: std::fmt::Debug>(log: &mut Vec<String>, value: T) {
    log.push(format!("{value:?}"));
}

/// Runs `$body` on the plain pair, then on the wrapped pair, logging every result with
/// `rec`; the two logs must be identical. Evaluates to the log.
#[allow(unused_macros)]
macro_rules! same_behaviour {
    ($plain:expr, $wrapped:expr, |$tx:ident, $rx:ident, $log:ident| $body:block) => {{
        #[allow(unused_mut)]
        let plain = {
            let mut $log: Vec<String> = Vec::new();
            let ($tx, $rx) = $plain;
            $body;
            $log
        };
        #[allow(unused_mut)]
        let wrapped = {
            let mut $log: Vec<String> = Vec::new();
            let ($tx, $rx) = $wrapped;
            $body;
            $log
        };
        assert_eq!(plain, wrapped, "wrapping changed the behaviour");
        plain
    }};
}

/// `same_behaviour!` for an async body, each side on its own current-thread runtime.
#[allow(unused_macros)]
macro_rules! same_behaviour_async {
    ($plain:expr, $wrapped:expr, |$tx:ident, $rx:ident, $log:ident| $body:block) => {{
        let run = || tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        #[allow(unused_mut)]
        let plain = run().block_on(async {
            let mut $log: Vec<String> = Vec::new();
            let ($tx, $rx) = $plain;
            $body;
            $log
        });
        #[allow(unused_mut)]
        let wrapped = run().block_on(async {
            let mut $log: Vec<String> = Vec::new();
            let ($tx, $rx) = $wrapped;
            $body;
            $log
        });
        assert_eq!(plain, wrapped, "wrapping changed the behaviour");
        plain
    }};
}

/// Starts one profiling session for the whole test binary (report output off), so
/// tests running in parallel share it; each reads its own rows by label.
#[cfg(feature = "hotpath")]
pub(crate) fn session() {
    use hotpath::__private::{MainConfig, MainGuard};
    static SESSION: std::sync::OnceLock<MainGuard> = std::sync::OnceLock::new();
    SESSION.get_or_init(|| MainGuard::start(MainConfig::new("test::main").format("none").limit(0)));
}

/// The live `io` row named `name`.
#[cfg(feature = "hotpath")]
pub(crate) fn live_io_row(name: &str) -> hotpath::__private::model::IoRow {
    let report = hotpath::__private::snapshot().expect("session started");
    let rows = report.io.map(|s| s.rows).unwrap_or_default();
    rows.iter().find(|r| r.name == name).cloned().unwrap_or_else(|| panic!("no io row {name} in {rows:#?}"))
}

/// A fresh report (a live snapshot).
#[cfg(feature = "hotpath")]
pub(crate) fn report() -> hotpath::__private::model::Report {
    hotpath::__private::snapshot().expect("session started")
}
