//! Pins the JSON schema: a fixed report must serialize byte for byte as the golden
//! file, and the golden file must parse back to the same report. A change here is a
//! schema change: bump SCHEMA_VERSION if it is not purely additive, update
//! docs/JSON_SCHEMA.md, then regenerate with `UPDATE_GOLDEN=1 cargo test -p hotpath-model`.

use hotpath_model::{
    AllocTotals, ChannelRow, Channels, DurationStats, FunctionAlloc, FunctionCpu, FunctionIcount, FunctionTiming,
    FunctionsAlloc, FunctionsCpu, FunctionsIcount, FunctionsTiming, FutureRow, Futures, LockTiming, MutexRow, Mutexes,
    Percentiles, Report, RwLockRow, RwLocks, StreamRow, Streams, ThreadRow, Threads, SCHEMA_VERSION,
};

fn durations(count: u64, avg: u64, p: [u64; 3]) -> DurationStats {
    let mut d = DurationStats::default();
    d.count = count;
    d.total_ns = count * avg;
    d.avg_ns = avg;
    d.max_ns = p[2];
    d.percentiles_ns = Percentiles(vec![(50.0, p[0]), (95.0, p[1]), (99.9, p[2])]);
    d
}

fn lock(acquisitions: u64, contended: u64, wait: DurationStats, hold: DurationStats) -> LockTiming {
    let mut l = LockTiming::default();
    l.acquisitions = acquisitions;
    l.contended = contended;
    l.wait = wait;
    l.hold = hold;
    l
}

/// One row of every async and concurrency section.
fn flow_sections(report: &mut Report) {
    let mut future = FutureRow::default();
    future.name = "fetch-with-timeout".into();
    future.file = "examples/demo.rs".into();
    future.line = 90;
    future.kind = "future".into();
    future.calls = 5;
    future.timed_calls = Some(5);
    future.cancelled = 10;
    future.polls = 25;
    future.busy_ns = 120_000;
    future.wall = durations(5, 5_100_000, [5_050_000, 5_300_000, 5_400_000]);
    future.alloc_bytes_avg = Some(512);
    future.allocs_avg = Some(3);
    let mut futures = Futures::default();
    futures.total_futures = 4;
    futures.rows = vec![future];
    report.futures = Some(futures);

    let mut stream = StreamRow::default();
    stream.name = "rows".into();
    stream.file = "examples/demo.rs".into();
    stream.line = 101;
    stream.item_type = "Record".into();
    stream.instances = 3;
    stream.active = 1;
    stream.completed = 1;
    stream.cancelled = 1;
    stream.items = 600;
    stream.lifetime_ns = 300_000_000;
    stream.items_per_sec = 2000.0;
    stream.item_interval = durations(20, 500_000, [450_000, 900_000, 2_000_000]);
    let mut streams = Streams::default();
    streams.total_streams = 1;
    streams.rows = vec![stream];
    report.streams = Some(streams);

    let mut channel = ChannelRow::default();
    channel.name = "jobs".into();
    channel.file = "examples/demo.rs".into();
    channel.line = 120;
    channel.kind = "tokio::mpsc".into();
    channel.message_type = "Job".into();
    channel.capacity = Some(64);
    channel.instances = 1;
    channel.closed_instances = 0;
    channel.state = "open".into();
    channel.sent = 1500;
    channel.received = 1400;
    channel.queue_len = 100;
    channel.max_queue_len = 64;
    channel.blocked = durations(36, 8_000_000, [7_500_000, 9_000_000, 12_000_000]);
    channel.latency = durations(1400, 750_000_000, [760_000_000, 1_270_000_000, 1_320_000_000]);
    channel.slow_consumer = true;
    channel.slow_consumer_now = false;
    let mut channels = Channels::default();
    channels.slow_consumer_rule =
        "queue rose in >= 7 of 9 steps between 10 samples >= 100 ms apart, by >= 16 messages".into();
    channels.total_channels = 3;
    channels.rows = vec![channel];
    report.channels = Some(channels);

    let mut mutex = MutexRow::default();
    mutex.name = "ledger".into();
    mutex.file = "examples/demo.rs".into();
    mutex.line = 140;
    mutex.kind = "std".into();
    mutex.data_type = "Vec<u64>".into();
    mutex.instances = 1;
    mutex.lock = lock(
        41,
        30,
        durations(41, 4_000_000, [4_100_000, 6_200_000, 6_400_000]),
        durations(41, 2_100_000, [2_080_000, 2_300_000, 2_500_000]),
    );
    let mut mutexes = Mutexes::default();
    mutexes.total_mutexes = 1;
    mutexes.rows = vec![mutex];
    report.mutexes = Some(mutexes);

    let mut rw = RwLockRow::default();
    rw.name = "config".into();
    rw.file = "examples/demo.rs".into();
    rw.line = 141;
    rw.kind = "parking_lot".into();
    rw.data_type = "Config".into();
    rw.instances = 1;
    rw.reads = lock(40, 2, durations(40, 10_000, [0, 40_000, 90_000]), durations(40, 300, [250, 900, 1_000]));
    rw.writes = lock(
        2,
        2,
        durations(2, 2_000_000, [1_900_000, 2_100_000, 2_100_000]),
        durations(2, 1_050_000, [1_040_000, 1_060_000, 1_060_000]),
    );
    let mut rw_locks = RwLocks::default();
    rw_locks.total_rw_locks = 1;
    rw_locks.rows = vec![rw];
    report.rw_locks = Some(rw_locks);
}

fn sample() -> Report {
    let mut report = Report::default();
    report.schema_version = SCHEMA_VERSION;
    let meta = &mut report.meta;
    meta.hotpath_version = "0.23.0".into();
    meta.caller = "demo::main".into();
    meta.pid = 4242;
    meta.started_unix_ms = 1_790_000_000_000;
    meta.wall_ns = 1_250_000_000;
    meta.ended_by = "main_returned".into();
    meta.percentiles = vec![50.0, 95.0, 99.9];
    meta.limit = 15;
    meta.focus = Some("/^demo::/".into());
    meta.clock = "tsc".into();
    meta.clock_reason = "invariant TSC, kernel clocksource tsc".into();
    meta.dropped = 0;
    meta.label = Some("nightly".into());
    meta.time_sampling = [("functions".to_string(), 0.5)].into_iter().collect();
    meta.name_depth = 2;
    meta.warnings = vec!["HOTPATH_LIMIT=\"x\" is not a row count (0 shows all); using 15".into()];

    let mut sync = FunctionTiming::default();
    sync.name = "demo::parse".into();
    sync.file = "examples/demo.rs".into();
    sync.line = 42;
    sync.calls = 1000;
    sync.timed_calls = Some(500);
    sync.total_ns = 5_000_000;
    sync.self_ns = 4_000_000;
    sync.avg_ns = 5_000;
    sync.min_ns = 3_100;
    sync.max_ns = 91_000;
    sync.percentiles_ns = Percentiles(vec![(50.0, 4_800), (95.0, 7_900), (99.9, 88_000)]);

    let mut future = FunctionTiming::default();
    future.name = "demo::fetch".into();
    future.file = "examples/demo.rs".into();
    future.line = 77;
    future.is_async = true;
    future.calls = 20;
    future.active = 2;
    future.oldest_active_ns = Some(2_150_000_000);
    future.cancelled = 1;
    future.polls = 60;
    future.busy_ns = 300_000;
    future.total_ns = 200_000_000;
    future.self_ns = 250_000;
    future.avg_ns = 10_000_000;
    future.min_ns = 9_000_000;
    future.max_ns = 12_000_000;
    future.percentiles_ns = Percentiles(vec![(50.0, 10_000_000), (95.0, 11_800_000), (99.9, 12_000_000)]);

    let mut section = FunctionsTiming::default();
    section.total_functions = 7;
    section.rows = vec![future, sync];
    report.functions_timing = Some(section);

    let mut alloc = FunctionAlloc::default();
    alloc.name = "demo::parse".into();
    alloc.file = "examples/demo.rs".into();
    alloc.line = 42;
    alloc.calls = 1000;
    alloc.bytes_total = 48_000;
    alloc.bytes_avg = 48;
    alloc.bytes_max = 96;
    alloc.bytes_percentiles = Percentiles(vec![(50.0, 48), (95.0, 48), (99.9, 96)]);
    alloc.allocs_total = 1000;
    alloc.allocs_avg = 1;
    alloc.allocs_max = 2;
    alloc.allocs_percentiles = Percentiles(vec![(50.0, 1), (95.0, 1), (99.9, 2)]);
    let mut allocs = FunctionsAlloc::default();
    allocs.mode = "exclusive".into();
    allocs.process_alloc_bytes = 2_202_010;
    allocs.process_allocs = 5_120;
    allocs.total_functions = 7;
    allocs.rows = vec![alloc];
    report.functions_alloc = Some(allocs);

    let mut cpu_row = FunctionCpu::default();
    cpu_row.name = "demo::parse".into();
    cpu_row.self_samples = 583;
    cpu_row.inclusive_samples = 583;
    cpu_row.self_cpu_ns = 583_000_000;
    cpu_row.inclusive_cpu_ns = 583_000_000;
    let mut cpu = FunctionsCpu::default();
    cpu.hz = 1000;
    cpu.period_ns = 1_000_000;
    cpu.samples = 968;
    cpu.unmeasured_samples = 4;
    cpu.late_samples = 12;
    cpu.native_stacks = true;
    cpu.unwind_ns_per_sample = 757;
    cpu.files = vec!["profiles/hotpath-cpu.folded".into()];
    cpu.total_functions = 3;
    cpu.rows = vec![cpu_row];
    report.functions_cpu = Some(cpu);

    let mut icount_row = FunctionIcount::default();
    icount_row.name = "demo::parse".into();
    icount_row.file = "examples/demo.rs".into();
    icount_row.line = 42;
    icount_row.calls = 1000;
    icount_row.ir = 4_812_000;
    icount_row.ir_per_call = 4_812;
    icount_row.self_ir = 3_950_000;
    let mut icount = FunctionsIcount::default();
    icount.tool = "callgrind-3.19.0".into();
    icount.dump_file = "/work/demo/callgrind.out.4242.1".into();
    icount.program_ir = 19_370_551;
    icount.total_functions = 7;
    icount.uncounted = vec!["load: its body cannot run in a marker function (a block with return, ?, break or continue, or a function that never returns)".into()];
    icount.rows = vec![icount_row];
    report.functions_icount = Some(icount);
    report.heap = Some(heap_sample());

    let mut thread = ThreadRow::default();
    thread.name = "worker-1".into();
    thread.tid = 4250;
    thread.status = "Running".into();
    thread.cpu_percent = Some(98.2);
    thread.max_cpu_percent = Some(99.0);
    thread.cpu_user_ns = 1_842_000_000;
    thread.cpu_sys_ns = 31_000_000;
    thread.alloc_bytes = Some(12_698);
    thread.dealloc_bytes = Some(12_390);
    let mut totals = AllocTotals::default();
    totals.alloc_bytes = 2_202_010;
    totals.dealloc_bytes = 311_603;
    let mut threads = Threads::default();
    threads.pid = 4242;
    threads.rss_bytes = 8_178_893;
    threads.alloc = Some(totals);
    threads.interval_ms = 250;
    threads.samples = 5;
    threads.total_threads = 3;
    threads.rows = vec![thread];
    report.threads = Some(threads);
    report.tokio_runtime = Some(tokio_runtime());
    report.io = Some(io_sample());
    report.debug = Some(debug_sample());
    flow_sections(&mut report);
    report
}

#[path = "golden/sections.rs"]
mod sections;
use sections::{debug_sample, heap_sample, io_sample, tokio_runtime};

#[test]
fn schema_matches_the_golden_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/report_v1.json");
    let actual = sample().to_json(true) + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &actual).unwrap();
    }
    let golden = std::fs::read_to_string(path).unwrap();
    assert_eq!(actual, golden, "JSON schema changed; see this file's header");
    assert_eq!(Report::from_json(&golden).unwrap(), sample());
}
