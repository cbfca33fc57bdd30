//! The exposition of a report with something in every section, checked line by line
//! and by `promtool check metrics`.

use std::io::Write as _;
use std::time::Duration;

use hotpath_model::*;

use super::*;

/// Three durations: 500 ns, 50 µs and 900 µs, and their native buckets (indices
/// at schema 8; `exponential_index` of each).
fn buckets() -> Option<Buckets> {
    let native = [500e-9, 50e-6, 900e-6].map(exponential_index);
    let b = Buckets::new(vec![0, 1, 1, 2, 3, 3, 3, 3, 3], 3, 1_500_000);
    Some(b.with_exponential(0, native.iter().map(|i| (*i, 1)).collect()))
}

fn stats() -> DurationStats {
    let mut d = DurationStats::default();
    d.count = 3;
    d.total_ns = 1_500_000;
    d.buckets = buckets();
    d
}

fn lock() -> LockTiming {
    let mut l = LockTiming::default();
    l.acquisitions = 7;
    l.contended = 2;
    l.wait = stats();
    l.hold = stats();
    l
}

/// A report with one row in every section that exports metrics.
fn report() -> Report {
    let mut r = Report::default();
    r.meta.hotpath_version = "0.23.0".into();
    r.meta.caller = "app::\"main\"".into();
    r.meta.clock = "tsc".into();
    let mut f = FunctionTiming::default();
    f.name = "app::f".into();
    f.total_ns = 5_000_000;
    f.buckets = buckets();
    let mut timing = FunctionsTiming::default();
    timing.rows = vec![f];
    r.functions_timing = Some(timing);
    let mut a = FunctionAlloc::default();
    a.name = "app::f".into();
    a.bytes_total = 4096;
    let mut alloc = FunctionsAlloc::default();
    alloc.process_alloc_bytes = 4096;
    alloc.rows = vec![a];
    r.functions_alloc = Some(alloc);
    let mut c = FunctionCpu::default();
    c.name = "app::f".into();
    c.inclusive_cpu_ns = 120_000_000;
    let mut cpu = FunctionsCpu::default();
    cpu.samples = 12;
    cpu.rows = vec![c];
    r.functions_cpu = Some(cpu);
    let mut t = ThreadRow::default();
    t.name = "main".into();
    t.tid = 7;
    t.cpu_user_ns = 2_000_000_000;
    let mut threads = Threads::default();
    threads.rss_bytes = 8_000_000;
    threads.rows = vec![t];
    r.threads = Some(threads);
    let mut w = TokioWorker::default();
    w.busy_ns = 3_000_000;
    let mut rt = TokioRuntime::default();
    rt.name = "api".into();
    rt.global_queue_depth = 1;
    rt.workers = vec![w];
    let mut tokio = TokioRuntimes::default();
    tokio.runtimes = vec![rt];
    r.tokio_runtime = Some(tokio);
    let mut ch = ChannelRow::default();
    ch.name = "jobs".into();
    ch.queue_len = 2;
    ch.latency = stats();
    ch.blocked = stats();
    let mut channels = Channels::default();
    channels.rows = vec![ch];
    r.channels = Some(channels);
    let mut fu = FutureRow::default();
    fu.name = "fetch".into();
    fu.wall = stats();
    let mut futures = Futures::default();
    futures.rows = vec![fu];
    r.futures = Some(futures);
    let mut st = StreamRow::default();
    st.name = "ticks".into();
    st.items = 40;
    st.item_interval = stats();
    let mut streams = Streams::default();
    streams.rows = vec![st];
    r.streams = Some(streams);
    let mut m = MutexRow::default();
    m.name = "state".into();
    m.lock = lock();
    let mut mutexes = Mutexes::default();
    mutexes.rows = vec![m];
    r.mutexes = Some(mutexes);
    let mut rw = RwLockRow::default();
    rw.name = "cfg".into();
    rw.reads = lock();
    rw.writes = lock();
    let mut rw_locks = RwLocks::default();
    rw_locks.rows = vec![rw];
    r.rw_locks = Some(rw_locks);
    let mut io = IoRow::default();
    io.name = "redis".into();
    io.read.bytes = 400;
    io.read.buckets = buckets();
    io.write.buckets = buckets();
    let mut section = IoSection::default();
    section.rows = vec![io];
    r.io = Some(section);
    r
}

mod native;

/// The report rendered in `format` with the process labels of `exposition`.
fn rendered(exposition: &Exposition, format: Format) -> Vec<u8> {
    render(&Snapshot::new(report(), Duration::from_millis(1500)), &Stats::default(), exposition, format)
}

fn exposition() -> String {
    String::from_utf8(rendered(&Exposition::default(), Format::Text)).unwrap()
}

#[test]
fn every_section_exports_its_families() {
    let text = exposition();
    for line in [
        "hotpath_info{version=\"0.23.0\",caller=\"app::\\\"main\\\"\",clock=\"tsc\"} 1",
        "hotpath_function_duration_seconds_bucket{function=\"app::f\",le=\"0.0000001\"} 0",
        "hotpath_function_duration_seconds_bucket{function=\"app::f\",le=\"+Inf\"} 3",
        "hotpath_function_duration_seconds_sum{function=\"app::f\"} 0.0015",
        "hotpath_function_time_seconds_total{function=\"app::f\"} 0.005",
        "hotpath_function_allocated_bytes_total{function=\"app::f\"} 4096",
        "hotpath_function_cpu_seconds_total{function=\"app::f\"} 0.12",
        "hotpath_thread_cpu_seconds_total{thread=\"main\",tid=\"7\",mode=\"user\"} 2",
        "hotpath_tokio_worker_busy_seconds_total{runtime=\"api\",worker=\"0\"} 0.003",
        "hotpath_tokio_global_queue_depth{runtime=\"api\"} 1",
        "hotpath_channel_queue_length{channel=\"jobs\"} 2",
        "hotpath_channel_latency_seconds_count{channel=\"jobs\"} 3",
        "hotpath_channel_blocked_seconds_bucket{channel=\"jobs\",le=\"+Inf\"} 3",
        "hotpath_future_duration_seconds_count{future=\"fetch\"} 3",
        "hotpath_stream_items_total{stream=\"ticks\"} 40",
        "hotpath_stream_item_seconds_count{stream=\"ticks\"} 3",
        "hotpath_mutex_wait_seconds_total{mutex=\"state\"} 0.0015",
        "hotpath_mutex_wait_seconds_count{mutex=\"state\"} 3",
        "hotpath_mutex_hold_seconds_count{mutex=\"state\"} 3",
        "hotpath_rw_lock_wait_seconds_count{rw_lock=\"cfg\",mode=\"write\"} 3",
        "hotpath_rw_lock_hold_seconds_count{rw_lock=\"cfg\",mode=\"read\"} 3",
        "hotpath_io_bytes_total{io=\"redis\",direction=\"read\"} 400",
        "hotpath_io_operation_seconds_count{io=\"redis\",direction=\"write\"} 3",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} in:\n{text}");
    }
    assert!(!text.contains("=\"\""), "no empty label value:\n{text}");
    let mut check = std::process::Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("promtool is installed (scripts/test installs the prometheus package)");
    check.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let out = check.wait_with_output().unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && said.is_empty(), "promtool: {said}\n{text}");
}

#[test]
fn empty_label_values_become_a_dash() {
    let mut f = Family::new("x_total", MetricKind::Counter, "x");
    f.value(&[("name", "")], 1.0);
    let mut out = String::new();
    write_family(&mut out, &f, &[]);
    assert!(out.contains("x_total{name=\"-\"} 1"), "{out}");
}

#[test]
fn escapes_label_values() {
    assert_eq!(escape("<a as b>::\"c\"\\\n"), "<a as b>::\\\"c\\\"\\\\\\n");
}

#[test]
fn process_labels_lead_every_series() {
    let labels = [("service".to_string(), "api \"v2\"".to_string()), ("zone".to_string(), "a".to_string())];
    let text = String::from_utf8(rendered(&Exposition::new(&labels), Format::Text)).unwrap();
    let series: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!series.is_empty());
    for line in series {
        assert!(line.starts_with("hotpath_"), "{line}");
        assert!(line.contains("{service=\"api \\\"v2\\\"\",zone=\"a\""), "{line}");
    }
    assert!(text.contains("hotpath_uptime_seconds{service=\"api \\\"v2\\\"\",zone=\"a\"} 1.5"), "{text}");
}
