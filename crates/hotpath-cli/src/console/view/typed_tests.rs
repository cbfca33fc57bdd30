//! Rendered buffers of the I/O, Threads and Tokio tabs, each built from the model's
//! typed section (serialized as the server sends it): which columns a user sees.

use std::time::{Duration, Instant};

use hotpath_model::{
    IoRow, IoSection, IoTransfer, Percentiles, ThreadRow, Threads, TokioPoint, TokioRuntime, TokioRuntimes, TokioWorker,
};
use serde_json::{json, Value};

use super::tests::{report, screen, status};
use crate::console::client::Update;
use crate::console::state::{Action, App};

const IO_TAB: usize = 2;
const THREADS_TAB: usize = 3;
const TOKIO_TAB: usize = 4;

/// The console after two polls one second apart, on tab `tab`.
fn polled(tab: usize, key: &str, first: Value, second: Value) -> App {
    let mut app = App::new("127.0.0.1:6770".into(), Duration::from_millis(500));
    let t0 = Instant::now();
    app.apply(Update::Data { status: status(&[]), report: report(1, json!({ key: first })) }, t0);
    app.apply(
        Update::Data { status: status(&[]), report: report(1, json!({ key: second })) },
        t0 + Duration::from_secs(1),
    );
    app.handle(Action::Tab(tab));
    app
}

/// The titles of the table whose first column is `first` (not the detail pane beside it).
fn header(text: &str, first: &str) -> String {
    let at = format!("│  {first} ");
    let line = text.lines().find(|l| l.contains(&at)).unwrap_or_else(|| panic!("no header {first}:\n{text}"));
    line.split('│').nth(1).unwrap().to_string()
}

fn transfer(ops: u64, bytes: u64) -> IoTransfer {
    let mut t = IoTransfer::default();
    (t.ops, t.bytes, t.timed_ops, t.timed_bytes, t.timed_ns) = (ops, bytes, ops, bytes, ops * 2_000);
    (t.avg_ns, t.min_ns, t.max_ns) = (2_000, 1_000, 9_000);
    t.percentiles_ns = Percentiles(vec![(50.0, 1_500), (99.0, 8_000)]);
    t
}

fn io_row(name: &str, line: u32, read: IoTransfer, write: IoTransfer) -> IoRow {
    let mut row = IoRow::default();
    (row.name, row.file, row.line, row.type_name, row.instances) =
        (name.into(), "src/main.rs".into(), line, "File".into(), 1);
    (row.read, row.write) = (read, write);
    row
}

fn io(rows: Vec<IoRow>) -> Value {
    let mut section = IoSection::default();
    (section.total_entries, section.time_sampling_rate, section.rows) = (rows.len(), 1.0, rows);
    serde_json::to_value(section).unwrap()
}

#[test]
fn a_write_only_file_shows_its_writes_and_no_zero_reads() {
    let log = |writes: u64| {
        let mut row = io_row("app.log", 9, IoTransfer::default(), transfer(writes, writes * 1024));
        row.flush.ops = 2;
        io(vec![row])
    };
    let mut app = polled(IO_TAB, "io", log(40), log(140));
    let text = screen(&mut app, 180, 30);
    let titles = header(&text, "Io");
    for title in ["Writes", "Writes/s", "Write bytes", "Write B/s", "Write avg", "Write P50", "Write P99"] {
        assert!(titles.contains(title), "{title} in {titles}");
    }
    assert!(!titles.contains("Read"), "a file never read has no read columns: {titles}");
    assert!(!titles.contains("errors"), "no errors, no errors column: {titles}");
    assert!(!text.contains("more columns"), "every column fits: {text}");
    let row = text.lines().find(|l| l.contains("▶ app.log")).unwrap_or_else(|| panic!("{text}"));
    assert!(row.contains("140") && row.contains("100.0/s") && row.contains("100.0 KB/s"), "{row}");
    // The writes come first: right after the name.
    let cells: Vec<&str> = row.split('│').nth(1).unwrap().split_whitespace().collect();
    assert_eq!(cells[..3], ["▶", "app.log", "140"], "{row}");
}

#[test]
fn io_shows_each_direction_that_has_data_and_only_the_figures_that_do() {
    let mut untimed = transfer(0, 0);
    (untimed.ops, untimed.bytes, untimed.errors) = (5, 500, 1);
    (untimed.timed_ops, untimed.timed_ns) = (0, 0);
    let rows = vec![
        io_row("config", 3, untimed, IoTransfer::default()),
        io_row("out", 4, IoTransfer::default(), transfer(7, 70)),
    ];
    let mut app = polled(IO_TAB, "io", io(rows.clone()), io(rows));
    let titles = header(&screen(&mut app, 260, 30), "Io");
    let at = |t: &str| titles.find(&format!(" {t} ")).unwrap_or_else(|| panic!("{t} in {titles}"));
    assert!(at("Reads") < at("Writes") && at("Write bytes") < at("Write avg"), "{titles}");
    // No read was timed: no read durations; a read failed: a read errors column.
    assert!(!titles.contains("Read avg") && titles.contains("Read errors"), "{titles}");
    assert!(!titles.contains("Write errors") && !titles.contains("Flushes"), "{titles}");
}

fn thread(name: &str, tid: u64, cpu: f64, user_ns: u64) -> ThreadRow {
    let mut row = ThreadRow::default();
    (row.name, row.tid, row.status) = (name.into(), tid, "Running".into());
    (row.cpu_percent, row.max_cpu_percent) = (Some(cpu), Some(cpu + 10.0));
    (row.cpu_user_ns, row.cpu_sys_ns) = (user_ns, 250_000_000);
    (row.alloc_bytes, row.dealloc_bytes) = (Some(12_697), Some(2_048));
    row
}

fn threads(user_ns: u64) -> Value {
    let mut section = Threads::default();
    (section.pid, section.rss_bytes, section.interval_ms, section.samples) = (42, 8_178_892, 500, 9);
    section.rows =
        vec![thread("worker-1", 8, 97.3, user_ns), thread("main", 7, 1.2, 10_000_000), thread("", 9, 0.0, 0)];
    section.total_threads = section.rows.len();
    serde_json::to_value(section).unwrap()
}

#[test]
fn threads_show_cpu_once_and_a_name_column_as_wide_as_the_names() {
    let mut app = polled(THREADS_TAB, "threads", threads(1_000_000_000), threads(1_900_000_000));
    let text = screen(&mut app, 160, 24);
    let titles = header(&text, "Name");
    for title in ["TID", "Status", "CPU %", "CPU max %", "CPU time", "Allocated", "Freed"] {
        assert!(titles.contains(title), "{title} in {titles}");
    }
    assert_eq!(titles.matches("CPU").count(), 3, "one CPU share, its maximum and the time: {titles}");
    assert!(!titles.contains("load") && !titles.contains("CPU user"), "{titles}");
    // Name is 8 wide ("worker-1"), then one space: the TID follows at once.
    let gap = titles.find("TID").unwrap() - titles.find("Name").unwrap();
    assert!(gap <= 10, "a name column sized to its names: {titles}");
    let worker = text.lines().find(|l| l.contains("▶ worker-1 ")).unwrap_or_else(|| panic!("{text}"));
    assert!(worker.contains("97.3%") && worker.contains("107.3%") && worker.contains("2.15 s"), "{worker}");
    // An unnamed thread: `-` in the name column, its tid beside it.
    let unnamed = text.lines().find(|l| l.contains(" 9 ") && l.contains(" - ")).unwrap_or_else(|| panic!("{text}"));
    assert!(unnamed.contains("Running"), "{unnamed}");
    assert!(text.contains("CPU user load"), "the detail pane charts the user CPU time per second: {text}");
}

fn tokio(samples: u64, monitored_ns: u64) -> Value {
    let mut worker = TokioWorker::default();
    (worker.busy_ns, worker.busy_percent, worker.parks) = (monitored_ns / 4, 25.0, 3);
    let mut point = TokioPoint::default();
    (point.at_ms, point.alive_tasks, point.busy_percent) = (monitored_ns / 1_000_000, 2, 31.5);
    let mut rt = TokioRuntime::default();
    (rt.name, rt.file, rt.line, rt.flavor) = ("api".into(), "src/main.rs".into(), 12, "multi_thread".into());
    (rt.monitored_ns, rt.samples, rt.num_workers, rt.alive_tasks) = (monitored_ns, samples, 1, 2);
    (rt.workers, rt.history) = (vec![worker], vec![point]);
    let mut section = TokioRuntimes::default();
    (section.interval_ms, section.total_runtimes, section.runtimes) = (1_000, 1, vec![rt]);
    serde_json::to_value(section).unwrap()
}

#[test]
fn the_tokio_tab_counts_samples_beside_the_interval_without_a_samples_rate() {
    let mut app = polled(TOKIO_TAB, "tokio_runtime", tokio(5, 5_000_000_000), tokio(6, 6_000_000_000));
    let text = screen(&mut app, 160, 40);
    assert!(text.contains("1 runtime, sampled every 1.00 s") && text.contains("tokio_unstable metrics: off"), "{text}");
    assert!(!text.contains("Samples/s") && !text.contains("Interval:"), "{text}");
    let titles = header(&text, "Runtime");
    for title in ["Flavor", "Workers", "Busy (now)", "Tasks", "Global queue", "Flags", "Monitored", "Samples"] {
        assert!(titles.contains(title), "{title} in {titles}");
    }
    let api = text.lines().find(|l| l.contains("▶ api ")).unwrap_or_else(|| panic!("{text}"));
    assert!(api.contains("multi_thread") && api.contains("31.5%") && api.contains("6.00 s"), "{api}");
    assert!(api.trim_end_matches([' ', '│']).ends_with(" 6"), "six samples in six seconds: {api}");
}
