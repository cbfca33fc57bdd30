//! The golden report's Tokio, debug and I/O sections (see `golden.rs`).

use hotpath_model::{
    DbgRow, DebugRow, DebugTrackers, GaugeRow, IoControl, IoRow, IoSection, IoTransfer, Percentiles, TokioFlag,
    TokioPoint, TokioRuntime, TokioRuntimes, TokioWorker, ValRow,
};

/// A runtime sampled with `tokio_unstable`, so every optional field is present.
pub(crate) fn tokio_runtime() -> TokioRuntimes {
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

/// A row of each tracker; the val! row is the `<other>` one, the dbg! value was cut.
pub(crate) fn debug_sample() -> DebugTrackers {
    let mut dbg = DbgRow::default();
    dbg.id = 0;
    dbg.name = "&batch".into();
    dbg.file = "examples/demo.rs".into();
    dbg.line = 150;
    dbg.column = 9;
    dbg.count = 12;
    dbg.value = "[Job { id: 1 }, Job { id: 2 }, ...".into();
    dbg.cut = true;
    dbg.last_at_ns = 1_200_000_000;
    dbg.thread = "main".into();
    let mut val = ValRow::default();
    val.id = 3;
    val.name = "<other>".into();
    val.other = true;
    val.count = 40;
    val.value = "\"idle\"".into();
    val.last_at_ns = 1_100_000_000;
    val.thread = "worker-1".into();
    val.file = "examples/demo.rs".into();
    val.line = 160;
    val.column = 5;
    let mut gauge = GaugeRow::default();
    gauge.id = 0;
    gauge.name = "queue-depth".into();
    gauge.updates = 3;
    gauge.current = 12.0;
    gauge.min = 10.0;
    gauge.max = 15.5;
    gauge.last_at_ns = 1_240_000_000;
    gauge.thread = "main".into();
    gauge.file = "examples/demo.rs".into();
    gauge.line = 170;
    gauge.column = 5;
    gauge.history = vec![10.0, 15.5, 12.0];
    let mut section = DebugTrackers::default();
    section.total_rows = 3;
    section.logs_limit = 50;
    section.max_log_len = 1536;
    section.entries_limit = 1000;
    section.rows = vec![DebugRow::Dbg(dbg), DebugRow::Val(val), DebugRow::Gauge(gauge)];
    section
}

pub(crate) fn io_sample() -> IoSection {
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

/// A `heap` section: one leaking stack, at exit.
pub(crate) fn heap_sample() -> hotpath_model::Heap {
    use hotpath_model::sections::heap::HeapStack;
    let mut row = HeapStack::default();
    row.name = "demo::cache::insert (src/cache.rs:42)".into();
    row.function = "demo::cache::insert".into();
    row.file = "src/cache.rs".into();
    row.line = 42;
    row.frames = vec![row.name.clone(), "demo::main (src/main.rs:12)".into()];
    row.samples = 312;
    row.live_bytes = 20_610_412;
    row.live_bytes_low = 18_391_218;
    row.live_bytes_high = 23_016_933;
    row.live_objects = 20_127;
    row.live_objects_low = 17_960;
    row.live_objects_high = 22_477;
    row.history = vec![12_100_300, 16_480_120, 20_610_412];
    row.growing = false;
    let mut heap = hotpath_model::Heap::default();
    heap.sample_bytes = 65_536;
    heap.confidence = 0.95;
    heap.live_samples = 315;
    heap.live_bytes = 20_610_412;
    heap.live_bytes_low = 18_391_218;
    heap.live_bytes_high = 23_016_933;
    heap.live_objects = 20_127;
    heap.ignored_bytes = 196_608;
    heap.ignore = vec!["lazy_static".into()];
    heap.dropped_samples = 0;
    heap.growth_window = 8;
    heap.total_stacks = 1;
    heap.files = vec!["profiles/hotpath-heap.pb.gz".into(), "profiles/hotpath-heap.svg".into()];
    heap.rows = vec![row];
    let mut function = hotpath_model::sections::heap::HeapFunction::default();
    function.name = "demo::main".into();
    function.samples = 312;
    function.live_bytes = 20_610_412;
    function.live_bytes_low = 18_391_218;
    function.live_bytes_high = 23_016_933;
    function.live_objects = 20_127;
    heap.functions = vec![function];
    heap
}
