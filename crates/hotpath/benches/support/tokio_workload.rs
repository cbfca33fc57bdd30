//! The Tokio runtime sampler's cost, shared by this crate's `tokio_sampler` bench and
//! the hotpath 0.30.3 comparison (`bench/hotpath-0303`, binary `bench-hotpath-0303-tokio`),
//! so both run exactly the same workload.
//!
//! Modes (first argument):
//! - `throughput on|off [TASKS]`: tasks per second of a spawn-yield-join workload on
//!   a two-worker runtime, with `tokio_runtime!` registered (`on`) or not (`off`);
//!   the sampling interval comes from `HOTPATH_TOKIO_RUNTIME_INTERVAL_MS`. Median of 7
//!   rounds of TASKS tasks (default 200,000). Also prints the process CPU time per task
//!   and the CPU time the sampler thread used per second of the run (Linux schedstat).
//! - `sample WORKERS`: time of the first `tokio_runtime!` call and of one sample of a
//!   runtime with WORKERS workers (when the subject can sample on demand).

use std::any::Any;
use std::time::Instant;

use tokio::runtime::{Builder, Handle, Runtime};

/// What a workload user provides.
pub(crate) struct TokioSubject {
    /// Name printed with the results.
    pub(crate) name: &'static str,
    /// Starts a profiling session with report output off; dropped to end it.
    pub(crate) start: fn() -> Box<dyn Any>,
    /// Registers a runtime with the profiler (its `tokio_runtime!`).
    pub(crate) monitor: fn(&Handle),
    /// Samples every registered runtime once, if the subject exposes that.
    pub(crate) sample: Option<fn()>,
    /// Name of the profiler's runtime sampling thread.
    pub(crate) sampler_thread: &'static str,
}

/// CPU time the process has used, ns.
fn process_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: writes into a live timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// CPU time used by the threads named `name`, ns (Linux: `schedstat`, ns precision).
fn thread_cpu_ns(name: &str) -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0 };
    tasks
        .flatten()
        .filter(|t| std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.trim_end() == name))
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next().and_then(|v| v.parse::<u64>().ok()))
        .sum()
}

fn runtime(workers: usize) -> Runtime {
    Builder::new_multi_thread().worker_threads(workers).enable_all().build().expect("runtime")
}

/// Spawns `tasks` tasks from a task, each yielding once, and waits for all of them.
async fn spawn_yield_join(tasks: u64) -> u64 {
    let handles: Vec<_> = (0..tasks)
        .map(|i| {
            tokio::spawn(async move {
                tokio::task::yield_now().await;
                i
            })
        })
        .collect();
    let mut sum = 0u64;
    for h in handles {
        sum = sum.wrapping_add(h.await.unwrap_or(0));
    }
    sum
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Runs the mode named on the command line and prints `key=value` pairs.
pub(crate) fn run(subject: TokioSubject) {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    match args.first().map(String::as_str).unwrap_or("throughput") {
        "sample" => {
            let workers = number(1, 2) as usize;
            let session = (subject.start)();
            let rt = runtime(workers);
            let Some(sample) = subject.sample else {
                println!("{} sample unsupported", subject.name);
                return;
            };
            let start = Instant::now();
            (subject.monitor)(rt.handle());
            let register_us = start.elapsed().as_nanos() as f64 / 1000.0;
            // Keep the workers parked, as a sampler mostly finds them between bursts.
            let rounds = 20_000;
            let start = Instant::now();
            for _ in 0..rounds {
                sample();
            }
            let sample_ns = start.elapsed().as_nanos() as f64 / rounds as f64;
            drop(session);
            println!("{} sample workers={workers} register_us={register_us:.1} sample_ns={sample_ns:.0}", subject.name);
        }
        _ => {
            let monitored = args.get(1).map(String::as_str) != Some("off");
            let tasks = number(2, 200_000);
            let session = (subject.start)();
            let rt = runtime(2);
            if monitored {
                (subject.monitor)(rt.handle());
            }
            let (began, sampler_before) = (Instant::now(), thread_cpu_ns(subject.sampler_thread));
            let (rates, cpu): (Vec<f64>, Vec<f64>) = (0..7)
                .map(|_| {
                    let (start, cpu) = (Instant::now(), process_cpu_ns());
                    std::hint::black_box(rt.block_on(spawn_yield_join(tasks)));
                    let cpu_per_task = (process_cpu_ns() - cpu) as f64 / tasks as f64;
                    (tasks as f64 / start.elapsed().as_secs_f64(), cpu_per_task)
                })
                .unzip();
            let sampler_us_per_s = (thread_cpu_ns(subject.sampler_thread) - sampler_before) as f64
                / 1000.0
                / began.elapsed().as_secs_f64();
            drop(rt);
            drop(session);
            let mode = if monitored { "on" } else { "off" };
            println!(
                "{} throughput sampler={mode} tasks_per_s={:.0} cpu_ns_per_task={:.0} sampler_cpu_us_per_s={sampler_us_per_s:.1}",
                subject.name,
                median(rates),
                median(cpu)
            );
        }
    }
}
