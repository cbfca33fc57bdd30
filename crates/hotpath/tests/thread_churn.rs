//! 10,000 short-lived threads: every call is counted, and the profiler's memory is
//! bounded by sites × live threads, not by how many threads ever existed.
#![cfg(feature = "hotpath")]

use hotpath::__private::{live_threads, profiler_bytes, snapshot, MainConfig, MainGuard};

#[hotpath::measure]
fn short(i: u64) -> u64 {
    std::hint::black_box(i * 3)
}

#[hotpath::measure]
fn other(i: u64) -> u64 {
    std::hint::black_box(i + 1)
}

fn churn(threads: u64) {
    for batch in 0..threads / 100 {
        let handles: Vec<_> = (0..100)
            .map(|i| {
                std::thread::spawn(move || {
                    for _ in 0..3 {
                        short(batch * 100 + i);
                    }
                    other(i);
                })
            })
            .collect();
        handles.into_iter().for_each(|h| h.join().unwrap());
    }
}

fn calls(name: &str) -> u64 {
    let rows = snapshot().unwrap().functions_timing.unwrap().rows;
    rows.iter().find(|r| r.name == format!("thread_churn::{name}")).map_or(0, |r| r.calls)
}

#[test]
fn ten_thousand_threads() {
    let _session = MainGuard::start(MainConfig::new("thread_churn::test").format("none"));
    // The session's own thread holds a recorder (its main row's self time reads it).
    let before = live_threads();
    assert!(before <= 1, "{before} recorders before any worker ran");
    churn(1_000);
    assert_eq!(calls("short"), 3_000);
    assert_eq!(live_threads(), before, "exited threads are folded and freed");
    let after_1k = profiler_bytes();

    churn(9_000);
    assert_eq!(calls("short"), 30_000);
    assert_eq!(calls("other"), 10_000);
    assert_eq!(live_threads(), before);
    // Retired totals grow only when a duration lands in a histogram octave not seen
    // before (an outlier such as a preempted call): at most 59 octaves of 512 bytes
    // plus an 8-byte slot each, per site, however many threads ran. Keeping per-thread
    // state instead would cost at least 2 KiB (the recorder directory) per thread.
    let after_10k = profiler_bytes();
    let octave_bound = 2 * 59 * (512 + 8);
    assert!(after_10k <= after_1k + octave_bound, "memory grew with threads: {after_1k} -> {after_10k} bytes");
    assert!(after_10k < 9_000 * 2048 / 10, "far below one recorder per exited thread");
}
