//! Pins the JSON schema: a fixed report must serialize byte for byte as the golden
//! file, and the golden file must parse back to the same report. A change here is a
//! schema change: bump SCHEMA_VERSION if it is not purely additive, update
//! docs/JSON_SCHEMA.md, then regenerate with `UPDATE_GOLDEN=1 cargo test -p hotpath-model`.

use hotpath_model::{
    AllocTotals, FunctionAlloc, FunctionCpu, FunctionTiming, FunctionsAlloc, FunctionsCpu, FunctionsTiming, IoControl,
    IoRow, IoSection, IoTransfer, Percentiles, Report, ThreadRow, Threads, TokioFlag, TokioPoint, TokioRuntime,
    TokioRuntimes, TokioWorker, SCHEMA_VERSION,
};

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
    meta.dropped = 0;
    meta.warnings = vec!["HOTPATH_LIMIT=\"x\" is not a row count (0 shows all); using 15".into()];

    let mut sync = FunctionTiming::default();
    sync.name = "demo::parse".into();
    sync.file = "examples/demo.rs".into();
    sync.line = 42;
    sync.calls = 1000;
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
    cpu.native_stacks = true;
    cpu.unwind_ns_per_sample = 757;
    cpu.files = vec!["profiles/hotpath-cpu.folded".into()];
    cpu.total_functions = 3;
    cpu.rows = vec![cpu_row];
    report.functions_cpu = Some(cpu);

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
    report
}

/// A runtime sampled with `tokio_unstable`, so every optional field is present.
fn tokio_runtime() -> TokioRuntimes {
    let mut worker = TokioWorker::default();
    worker.index = 0;
    worker.busy_ns = 1_180_000_000;
    worker.busy_percent = 98.3;
    worker.parks = 3;
    worker.polls = Some(4);
    worker.steals = Some(0);
    worker.steal_operations = Some(0);
    worker.overflows = Some(0);
    worker.local_queue_depth = Some(0);
    worker.max_local_queue_depth = Some(1);
    worker.mean_poll_ns = Some(280_000_000);
    worker.longest_stall_ns = 1_120_000_000;
    worker.stalls = 1;

    let mut flag = TokioFlag::default();
    flag.kind = "blocking".into();
    flag.workers = vec![0];
    flag.at_ns = 1_150_000_000;
    flag.message = "worker 0 ran for up to 1.12 s without publishing progress (1 stall ≥ 100.00 ms): a blocking call (std::thread::sleep, synchronous I/O, a contended std lock) or a long computation inside async code holds the worker; move it to spawn_blocking or block_in_place".into();

    let mut point = TokioPoint::default();
    point.at_ms = 1_000;
    point.global_queue_depth = 0;
    point.alive_tasks = 2;
    point.busy_percent = 50.0;

    let mut runtime = TokioRuntime::default();
    runtime.name = "examples/demo.rs:120".into();
    runtime.file = "examples/demo.rs".into();
    runtime.line = 120;
    runtime.flavor = "multi_thread".into();
    runtime.monitored_ns = 1_200_000_000;
    runtime.samples = 60;
    runtime.num_workers = 2;
    runtime.alive_tasks = 2;
    runtime.max_alive_tasks = 3;
    runtime.global_queue_depth = 0;
    runtime.max_global_queue_depth = 1;
    runtime.blocking_threads = Some(1);
    runtime.idle_blocking_threads = Some(1);
    runtime.blocking_queue_depth = Some(0);
    runtime.max_blocking_queue_depth = Some(0);
    runtime.spawned_tasks = Some(3);
    runtime.remote_schedules = Some(2);
    runtime.budget_forced_yields = Some(0);
    runtime.flags = vec![flag];
    runtime.workers = vec![worker];
    runtime.history = vec![point];

    let mut section = TokioRuntimes::default();
    section.interval_ms = 20;
    section.tokio_unstable = true;
    section.total_runtimes = 1;
    section.runtimes = vec![runtime];
    section
}

fn io_sample() -> IoSection {
    let mut redis = IoRow::default();
    redis.name = "redis".into();
    redis.label = Some("redis".into());
    redis.file = "examples/basic_redis_io.rs".into();
    redis.line = 30;
    redis.type_name = "tokio::net::tcp::stream::TcpStream".into();
    redis.instances = 1;
    let mut read = IoTransfer::default();
    read.ops = 4;
    read.bytes = 40;
    read.timed_ops = 4;
    read.timed_bytes = 40;
    read.timed_ns = 200_000;
    read.avg_ns = 50_000;
    read.min_ns = 30_000;
    read.max_ns = 90_000;
    read.percentiles_ns = Percentiles(vec![(50.0, 40_000), (95.0, 90_000), (99.9, 90_000)]);
    read.bytes_per_sec = Some(200_000);
    redis.read = read;
    let mut write = IoTransfer::default();
    write.ops = 4;
    write.bytes = 60;
    write.errors = 1;
    write.timed_ops = 4;
    write.timed_bytes = 60;
    write.timed_ns = 40_000;
    write.avg_ns = 10_000;
    write.min_ns = 8_000;
    write.max_ns = 14_000;
    write.percentiles_ns = Percentiles(vec![(50.0, 9_000), (95.0, 14_000), (99.9, 14_000)]);
    write.bytes_per_sec = Some(1_500_000);
    redis.write = write;
    let mut flush = IoControl::default();
    flush.ops = 2;
    flush.timed_ops = 2;
    flush.timed_ns = 600;
    redis.flush = flush;
    let mut shutdown = IoControl::default();
    shutdown.ops = 1;
    shutdown.errors = 1;
    shutdown.timed_ops = 1;
    shutdown.timed_ns = 2_000;
    redis.shutdown = shutdown;

    let mut conn = IoRow::default();
    conn.name = "examples/io_server.rs:41".into();
    conn.file = "examples/io_server.rs".into();
    conn.line = 41;
    conn.type_name = "std::net::tcp::TcpStream".into();
    conn.iter = false;
    conn.instances = 100;
    let mut read = IoTransfer::default();
    read.ops = 300;
    read.bytes = 12_800;
    read.timed_ops = 300;
    read.timed_bytes = 12_800;
    read.timed_ns = 3_000_000;
    read.avg_ns = 10_000;
    read.min_ns = 2_000;
    read.max_ns = 80_000;
    read.percentiles_ns = Percentiles(vec![(50.0, 8_000), (95.0, 30_000), (99.9, 80_000)]);
    read.bytes_per_sec = Some(4_266_667);
    conn.read = read;

    let mut section = IoSection::default();
    section.total_entries = 2;
    section.time_sampling_rate = 1.0;
    section.rows = vec![redis, conn];
    section
}

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
