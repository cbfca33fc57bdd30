//! The debug trackers in a real process, for tests/debug_trackers.rs. Modes (first
//! argument): `report` (every macro form once, checking the values come back
//! unchanged), `dbg-calls N` (N `dbg!` calls at one call site), `keys N` (N distinct
//! `val!` and `gauge!` keys), `threads T N` (T threads and T Tokio tasks updating
//! shared trackers N times each), `live SECONDS` (trackers, then a gauge updated every
//! 10 ms until the time is up), `val-sets N KEYS` (N sets of a 1536-character value
//! over KEYS keys), `panics` (values whose `Debug` panics, under a panic
//! hook set before the session that aborts the process), `panics-late` (the same under
//! a counting hook set inside the session, which replaces the profiler's). A `dbg!`
//! runs before and after the session, where it must record nothing.

use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let mode = args.first().map_or("report", String::as_str);
    if mode == "panics" {
        std::panic::set_hook(Box::new(|info| {
            eprintln!("the program's hook saw: {info}");
            std::process::abort();
        }));
    }
    let _ = hotpath::dbg!("before the session");
    session(mode, number(1, 1), number(2, 1));
    let _ = hotpath::dbg!("after the report");
}

#[hotpath::main]
fn session(mode: &str, a: u64, b: u64) {
    match mode {
        "report" => report(),
        "dbg-calls" => dbg_calls(a),
        "keys" => keys(a),
        "threads" => threads(a, b),
        "live" => live(a),
        "val-sets" => val_sets(a, b),
        "panics" => panics(),
        "panics-late" => {
            std::panic::set_hook(Box::new(|_| {
                HOOK_CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }));
            panics();
            eprintln!("hook_calls={}", HOOK_CALLS.load(std::sync::atomic::Ordering::Relaxed));
        }
        other => panic!("unknown mode {other}"),
    }
}

fn report() {
    let x = 21u64;
    let y = hotpath::dbg!(x * 2);
    assert_eq!(y, 42);
    let name = String::from("hotpath");
    let name = hotpath::dbg!(name);
    let borrowed: &String = hotpath::dbg!(&name);
    assert_eq!(borrowed, "hotpath");
    let (a, b, c) = hotpath::dbg!(1u8, "two", 3.5f32,);
    assert_eq!((a, b, c), (1, "two", 3.5));
    for i in 0..60 {
        hotpath::dbg!(i);
    }
    let long = "é".repeat(5000);
    assert_eq!(hotpath::dbg!(long.as_str()).chars().count(), 5000);
    hotpath::val!("state").set(&"running");
    hotpath::val!(String::from("state")).set(&"stopped");
    for i in 0..3 {
        hotpath::val!(format!("conn-{i}")).set(&(i * 10));
    }
    hotpath::gauge!("queue").set(10).inc(5).dec(3);
    hotpath::gauge!("ratio").set(0.5_f32).inc(1_u64).dec(0.25);
    hotpath::gauge!("fresh").inc(2);
    hotpath::gauge!("fresh").dec(5_i64);
    println!("values ok");
}

fn log_bytes() -> usize {
    #[cfg(feature = "hotpath")]
    return hotpath::__private::log_bytes();
    #[cfg(not(feature = "hotpath"))]
    0
}

fn profiler_bytes() -> usize {
    #[cfg(feature = "hotpath")]
    return hotpath::__private::profiler_bytes();
    #[cfg(not(feature = "hotpath"))]
    0
}

/// Resident and peak resident memory in KiB.
fn rss_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        let line = status.lines().find(|l| l.starts_with(name));
        line.and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn dbg_calls(n: u64) {
    let warm = n / 10;
    let mut bytes_warm = 0;
    let mut rss_warm = 0;
    for i in 0..n {
        if i == warm {
            bytes_warm = profiler_bytes();
            rss_warm = rss_kib().0;
        }
        std::hint::black_box(hotpath::dbg!(i));
    }
    let (rss, hwm) = rss_kib();
    eprintln!(
        "calls={n} bytes_warm={bytes_warm} bytes_end={} rss_warm_kib={rss_warm} rss_end_kib={rss} hwm_kib={hwm}",
        profiler_bytes()
    );
}

fn keys(n: u64) {
    let before = profiler_bytes();
    for i in 0..n {
        hotpath::val!(format!("key-{i}")).set(&i);
        hotpath::gauge!(format!("g-{i}")).set(i);
    }
    let (rss, hwm) = rss_kib();
    eprintln!("keys={n} bytes_before={before} bytes_end={} rss_end_kib={rss} hwm_kib={hwm}", profiler_bytes());
}

/// `n` `val!` sets of a 1536-character text over `keys` keys in turn, then the
/// profiler's bytes and the resident set.
fn val_sets(n: u64, keys: u64) {
    let text = "x".repeat(1536);
    let started = Instant::now();
    for i in 0..n {
        hotpath::val!(format!("key-{}", i % keys.max(1))).set(&text);
    }
    let (rss, hwm) = rss_kib();
    eprintln!(
        "sets={n} ms={} bytes_end={} log_bytes={} rss_end_kib={rss} hwm_kib={hwm}",
        started.elapsed().as_millis(),
        profiler_bytes(),
        log_bytes()
    );
}

fn threads(threads: u64, n: u64) {
    std::thread::scope(|s| {
        for t in 0..threads {
            std::thread::Builder::new()
                .name(format!("updater-{t}"))
                .spawn_scoped(s, move || {
                    for i in 0..n {
                        hotpath::gauge!("shared").inc(1);
                        hotpath::val!("shared").set(&i);
                        hotpath::dbg!(i);
                    }
                })
                .expect("thread starts");
        }
    });
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).build().expect("a runtime");
    runtime.block_on(async {
        let tasks: Vec<_> = (0..threads)
            .map(|_| {
                tokio::spawn(async move {
                    for i in 0..n {
                        hotpath::gauge!(String::from("tasks")).inc(1).dec(0.5);
                        if i % 64 == 0 {
                            tokio::task::yield_now().await;
                        }
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.expect("task ends");
        }
    });
}

fn live(seconds: u64) {
    report();
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut i = 0u64;
    while Instant::now() < end {
        hotpath::gauge!("ticks").set(i % 7);
        hotpath::val!("tick").set(&i);
        i += 1;
        std::thread::sleep(Duration::from_millis(10));
    }
}

static HOOK_CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A value whose `Debug` panics.
struct Bad(u32);

impl std::fmt::Debug for Bad {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        panic!("Debug of Bad({}) panicked", self.0)
    }
}

#[hotpath::measure(log = true)]
fn make_bad(n: u32) -> Bad {
    Bad(n)
}

fn panics() {
    let bad = hotpath::dbg!(Bad(1));
    hotpath::val!("bad").set(&bad);
    let made = make_bad(2);
    assert_eq!((bad.0, made.0), (1, 2));
    println!("values ok");
}
