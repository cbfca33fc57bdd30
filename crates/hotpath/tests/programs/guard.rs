//! The programmatic session, as hotpath-rs 0.30 programs use it: the first argument
//! picks a scenario.
//!
//! - `builder`: a guard with every builder option, around a part of the run.
//! - `twice`: a second guard while the first is alive (refused), then one after it.
//! - `shutdown`: `build_with_shutdown`, then work forever: the report ends the process.
//! - `main`: `#[hotpath::main]` itself; with `HOTPATH_SHUTDOWN_MS` the program loops.
//! - `sampled`: 1,000 calls with function time sampling at 0.25.

use std::collections::HashMap;
use std::time::Duration;

#[hotpath::measure]
fn work(n: u64) -> u64 {
    (0..n).fold(0u64, |a, b| a.wrapping_mul(31).wrapping_add(b))
}

#[hotpath::measure]
fn other(n: u64) -> u64 {
    work(n) ^ 7
}

fn calls(n: usize) {
    for i in 0..n {
        std::hint::black_box(work(i as u64 % 50));
    }
}

fn builder() {
    calls(3); // before the session: not counted
    let metadata = HashMap::from([("team".to_string(), "core".to_string()), ("run".to_string(), "1".to_string())]);
    let guard = hotpath::HotpathGuardBuilder::new("guard::builder")
        .percentiles(&[50.0, 90.0])
        .format(hotpath::Format::Json)
        .limit(10)
        .functions_limit(5)
        .sections(vec![hotpath::Section::FunctionsTiming, hotpath::Section::Channels])
        .user_metadata(metadata)
        .before_shutdown(|| {
            std::hint::black_box(other(10));
        })
        .build();
    calls(40);
    drop(guard);
    calls(5); // after: not counted
}

fn twice() {
    let first = hotpath::HotpathGuardBuilder::new("guard::first").format(hotpath::Format::Json).build();
    let second = hotpath::HotpathGuardBuilder::new("guard::second").build();
    calls(10);
    drop(second); // inert: no report
    drop(first);
    let third = hotpath::HotpathGuardBuilder::new("guard::third").format(hotpath::Format::Json).build();
    calls(4);
    drop(third);
}

fn shutdown() {
    hotpath::HotpathGuardBuilder::new("guard::shutdown")
        .format(hotpath::Format::Json)
        .build_with_shutdown(Duration::from_millis(300));
    loop {
        calls(10);
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[hotpath::main(format = "json")]
fn main_scenario() {
    loop {
        calls(10);
        if std::env::var_os("HOTPATH_SHUTDOWN_MS").is_none() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn sampled() {
    let guard = hotpath::HotpathGuardBuilder::new("guard::sampled")
        .format(hotpath::Format::Json)
        .functions_time_sampling_rate(0.25)
        .build();
    calls(1000);
    drop(guard);
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("builder") => builder(),
        Some("twice") => twice(),
        Some("shutdown") => shutdown(),
        Some("main") => main_scenario(),
        Some("sampled") => sampled(),
        other => eprintln!("unknown scenario {other:?}"),
    }
}
