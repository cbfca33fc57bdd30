//! The flight recorder's dump: how long writing a full window takes, and that the
//! program's threads go on meanwhile. `scripts/bench timeline` runs it with
//! `HOTPATH_TIMELINE_SIZE` set; the per-call cost of recording is the `overhead`
//! bench run with `HOTPATH_TIMELINE=on`.
//!
//! cargo bench -p hotpath --bench timeline --features hotpath -- EVENTS_PER_THREAD THREADS BUSY

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

#[hotpath::measure]
#[inline(never)]
fn measured(x: u64) -> u64 {
    std::hint::black_box(x)
}

/// CPU time of the calling thread (the dump's own work, whatever else the machine runs).
fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid timespec to write; the clock id is a constant.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (per_thread, threads, busy) = match args[..] {
        [a, b, c, ..] => (a, b, c),
        _ => (1 << 20, 1, 1),
    };
    let _guard =
        hotpath::HotpathGuardBuilder::new("timeline-bench").format(hotpath::Format::None).timeline(true).build();
    // Fill the rings: `threads` threads of `per_thread` calls, alive until the dumps end
    // so that each keeps a ring of its own.
    let filled = Arc::new(std::sync::Barrier::new(threads as usize + 1));
    let done = Arc::new(std::sync::Barrier::new(threads as usize + 1));
    let fill: Vec<_> = (0..threads)
        .map(|_| {
            let (filled, done) = (Arc::clone(&filled), Arc::clone(&done));
            std::thread::spawn(move || {
                (0..per_thread).for_each(|i| _ = measured(i));
                filled.wait();
                done.wait();
            })
        })
        .collect();
    filled.wait();
    // Threads that keep recording while the rings are copied.
    let stop = Arc::new(AtomicBool::new(false));
    let calls = Arc::new(AtomicU64::new(0));
    let busy: Vec<_> = (0..busy)
        .map(|_| {
            let (stop, calls) = (Arc::clone(&stop), Arc::clone(&calls));
            std::thread::spawn(move || {
                while !stop.load(Relaxed) {
                    measured(1);
                    calls.fetch_add(1, Relaxed);
                }
            })
        })
        .collect();
    let dir = std::env::temp_dir();
    let mut line = String::new();
    for (format, file) in [("perfetto", "hotpath-bench.pftrace"), ("json", "hotpath-bench.json")] {
        let path = dir.join(file);
        let before = calls.load(Relaxed);
        let (start, cpu) = (Instant::now(), thread_cpu_ns());
        let stats = hotpath::write_timeline(&path, None).expect("the timeline is on");
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let cpu_ms = (thread_cpu_ns() - cpu) as f64 / 1e6;
        let during = calls.load(Relaxed) - before;
        let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
        let _ = std::fs::remove_file(&path);
        line += &format!(
            "{format}_events={} {format}_ms={ms:.1} {format}_cpu_ms={cpu_ms:.1} {format}_bytes={bytes} {format}_torn={} {format}_busy_calls={during} ",
            stats.events, stats.torn
        );
    }
    stop.store(true, Relaxed);
    busy.into_iter().for_each(|t| t.join().unwrap());
    done.wait();
    fill.into_iter().for_each(|t| t.join().unwrap());
    println!("{}", line.trim_end());
}
