//! Pins the JSON schema: a fixed report must serialize byte for byte as the golden
//! file, and the golden file must parse back to the same report. A change here is a
//! schema change: bump SCHEMA_VERSION if it is not purely additive, update
//! docs/JSON_SCHEMA.md, then regenerate with `UPDATE_GOLDEN=1 cargo test -p hotpath-model`.

use hotpath_model::{
    FunctionTiming, FunctionsTiming, IoControl, IoRow, IoSection, IoTransfer, Percentiles, Report, SCHEMA_VERSION,
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
    report.io = Some(io_sample());
    report
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
