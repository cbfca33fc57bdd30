//! Measurement loops shared by this crate's `overhead` bench and the hotpath 0.30.3
//! comparison crate in `bench/hotpath-0303`, so both run exactly the same code.
//!
//! Modes (first argument):
//! - `overhead [ITERATIONS]`: ns per call for a bare clock pair, a plain call and a measured call
//! - `cpu CALLS`: process CPU time (all threads) per measured call, session end included,
//!   so work a profiler defers to a background thread is counted too
//! - `memory CALLS THREADS`: peak RSS after CALLS measured calls split over THREADS
//! - `startup`: time to create the profiling session (what `#[hotpath::main]` runs first)
//! - `alloc [PAIRS]`: ns per `Box` allocate+free pair through the global allocator the
//!   binary was built with, outside any measured function and inside one
//! - `work [ROUNDS]`: process CPU time (all threads) of a fixed CPU-bound workload run
//!   inside a measured function: with CPU sampling on, the difference to a build
//!   without it is the sampling overhead (signals, stack copies, unwinding)
//! - `sampler`: ns per threads-view sample with 10 and 100 extra parked threads (when
//!   the subject can sample on demand)
//!
//! I/O modes (see [`run_io`], in `io_harness.rs`), comparing `io!`-wrapped in-memory streams with unwrapped ones:
//! - `io`: ns per `read`/`write` call of 64 B and 64 KiB, wrapped and unwrapped
//! - `io-cpu OPS`: process CPU time (all threads) per wrapped 64 B read, session end included
//! - `flow [ITERATIONS]`: ns per operation, calling thread, best of 7 rounds, of a std
//!   channel send+recv, a std mutex lock+unlock, a `future!` await of a ready future,
//!   a `stream!` item, a `gauge!` set and a `val!` set of an integer, each beside the same
//!   operation unwrapped (for the trackers: storing the number through `black_box`)
//! - `flow-cpu OP N`: process CPU time per operation (all threads, session end
//!   included) for N operations of one kind (`channel`, `lock`, `future`, `stream`,
//!   `gauge`, `val`),
//!   wrapped and unwrapped; one kind per process, so deferred work is charged to it
//! - `flow-run OP N wrapped|plain`: just N operations of one kind (with a session when
//!   wrapped), for instruction counts under callgrind

use std::any::Any;
use std::hint::black_box;
use std::time::Instant;

use flow::{per_op, run_op, OPS};

/// What a harness user provides.
pub(crate) struct Subject {
    /// Name printed with the results.
    pub(crate) name: &'static str,
    /// An empty measured function.
    pub(crate) measured: fn(u64) -> u64,
    /// Starts a profiling session with report output off; dropped to end it.
    pub(crate) start: fn() -> Box<dyn Any>,
    /// A measured function running [`alloc_pairs`] inside its frame.
    pub(crate) measured_alloc_pairs: fn(u64) -> u64,
    /// Takes one threads-view sample, if the subject exposes that.
    pub(crate) sample_threads: Option<fn()>,
    /// A measured function running [`work`] inside its frame.
    pub(crate) measured_work: fn(u64) -> u64,
    /// Extra `key=value` figures the subject can report (e.g. CPU sampler statistics).
    pub(crate) extra: fn() -> String,
}

/// A CPU-bound loop with no allocation and no syscalls.
#[inline(never)]
pub(crate) fn work(rounds: u64) -> u64 {
    let mut x = 1u64;
    for _ in 0..rounds {
        x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407));
    }
    x
}

/// `n` allocate+free pairs of a small box; what the alloc mode times.
#[inline(never)]
pub(crate) fn alloc_pairs(n: u64) -> u64 {
    let mut acc = 0u64;
    for i in 0..n {
        acc = acc.wrapping_add(*black_box(Box::new(i)));
    }
    acc
}

#[inline(never)]
fn plain(x: u64) -> u64 {
    black_box(x)
}

#[inline(never)]
fn clock_pair(x: u64) -> u64 {
    let start = read_clock();
    let x = black_box(x);
    black_box(read_clock().wrapping_sub(start));
    x
}

#[inline(always)]
fn read_clock() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC has no preconditions on x86_64.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Instant::now().elapsed().as_nanos() as u64
    }
}

/// Best of seven rounds, in nanoseconds per call.
fn per_call(iterations: u64, f: fn(u64) -> u64) -> f64 {
    (0..7)
        .map(|_| {
            let start = Instant::now();
            let mut acc = 0u64;
            for i in 0..iterations {
                acc = acc.wrapping_add(f(i));
            }
            black_box(acc);
            start.elapsed().as_nanos() as f64 / iterations as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// CPU time consumed by the whole process so far, in nanoseconds.
fn process_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: writes into a live timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Peak resident set size of this process, in KiB (Linux `VmHWM`).
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

/// Runs the mode named on the command line and prints `key value` lines.
pub(crate) fn run(subject: Subject) {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    match args.first().map(String::as_str).unwrap_or("overhead") {
        "memory" => {
            let (calls, threads) = (number(1, 1_000_000), number(2, 1));
            let session = (subject.start)();
            let rss_before = peak_rss_kib();
            std::thread::scope(|s| {
                for _ in 0..threads {
                    s.spawn(|| {
                        for i in 0..calls / threads {
                            black_box((subject.measured)(i));
                        }
                    });
                }
            });
            drop(session);
            println!(
                "{} memory calls={calls} threads={threads} peak_rss_kib={} before_kib={rss_before}",
                subject.name,
                peak_rss_kib()
            );
        }
        "cpu" => {
            let calls = number(1, 10_000_000);
            let before = process_cpu_ns();
            let session = (subject.start)();
            let mut acc = 0u64;
            for i in 0..calls {
                acc = acc.wrapping_add((subject.measured)(i));
            }
            black_box(acc);
            drop(session);
            let per_call = (process_cpu_ns() - before) as f64 / calls as f64;
            println!("{} cpu calls={calls} cpu_ns_per_call={per_call:.2}", subject.name);
        }
        "alloc" => {
            let pairs = number(1, 5_000_000);
            let session = (subject.start)();
            let best = |f: &dyn Fn() -> u64| {
                (0..7)
                    .map(|_| {
                        let start = Instant::now();
                        black_box(f());
                        start.elapsed().as_nanos() as f64 / pairs as f64
                    })
                    .fold(f64::INFINITY, f64::min)
            };
            let outside = best(&|| alloc_pairs(pairs));
            let inside = best(&|| (subject.measured_alloc_pairs)(pairs));
            drop(session);
            println!("{} alloc outside_ns={outside:.2} inside_ns={inside:.2}", subject.name);
        }
        "work" => {
            let rounds = number(1, 1_000_000_000);
            let session = (subject.start)();
            let (before, wall) = (process_cpu_ns(), Instant::now());
            black_box((subject.measured_work)(rounds));
            let cpu = process_cpu_ns() - before;
            let wall = wall.elapsed().as_nanos();
            let extra = (subject.extra)();
            drop(session);
            println!(
                "{} work rounds={rounds} cpu_ms={:.1} wall_ms={:.1} {extra}",
                subject.name,
                cpu as f64 / 1e6,
                wall as f64 / 1e6
            );
        }
        "sampler" => {
            let Some(sample) = subject.sample_threads else {
                println!("{} sampler unsupported", subject.name);
                return;
            };
            let session = (subject.start)();
            let mut line = format!("{} sampler", subject.name);
            for extra in [10usize, 100] {
                let stop = std::sync::Arc::new(std::sync::Barrier::new(extra + 1));
                let parked: Vec<_> = (0..extra)
                    .map(|_| {
                        let stop = std::sync::Arc::clone(&stop);
                        std::thread::spawn(move || {
                            stop.wait();
                        })
                    })
                    .collect();
                let rounds = 200;
                let start = Instant::now();
                for _ in 0..rounds {
                    sample();
                }
                let per = start.elapsed().as_nanos() as f64 / rounds as f64;
                line.push_str(&format!(" threads_{extra}_us={:.1}", per / 1000.0));
                stop.wait();
                parked.into_iter().for_each(|t| t.join().unwrap());
            }
            drop(session);
            println!("{line}");
        }
        "flow" => {
            let n = number(1, 1_000_000);
            let session = (subject.start)();
            let mut line = format!("{} flow", subject.name);
            for (op, name) in OPS {
                let plain = per_op(op, false, n);
                let wrapped = per_op(op, true, n);
                line.push_str(&format!(" {name}_plain_ns={plain:.2} {name}_ns={wrapped:.2}"));
            }
            drop(session);
            println!("{line}");
        }
        "flow-cpu" => {
            let name = args.get(1).map_or("channel", String::as_str);
            let Some(&(op, _)) = OPS.iter().find(|(_, n)| *n == name) else {
                println!("{} flow-cpu unknown operation {name}", subject.name);
                return;
            };
            let n = number(2, 1_000_000);
            let before = process_cpu_ns();
            black_box(run_op(op, false, n));
            let plain = (process_cpu_ns() - before) as f64 / n as f64;
            let before = process_cpu_ns();
            let session = (subject.start)();
            black_box(run_op(op, true, n));
            drop(session);
            let wrapped = (process_cpu_ns() - before) as f64 / n as f64;
            println!("{} flow-cpu op={name} n={n} plain_cpu_ns={plain:.2} cpu_ns={wrapped:.2}", subject.name);
        }
        "flow-run" => {
            let name = args.get(1).map_or("channel", String::as_str);
            let Some(&(op, _)) = OPS.iter().find(|(_, n)| *n == name) else {
                println!("{} flow-run unknown operation {name}", subject.name);
                return;
            };
            let n = number(2, 100_000);
            let wrapped = args.get(3).is_some_and(|a| a == "wrapped");
            let session = wrapped.then(subject.start);
            black_box(run_op(op, wrapped, n));
            drop(session);
            println!("{} flow-run op={name} n={n} wrapped={wrapped}", subject.name);
        }
        "startup" => {
            let start = Instant::now();
            let session = (subject.start)();
            let elapsed = start.elapsed();
            black_box((subject.measured)(1));
            drop(session);
            println!("{} startup_us={:.1}", subject.name, elapsed.as_nanos() as f64 / 1000.0);
        }
        _ => {
            let iterations = number(1, 10_000_000);
            let session = (subject.start)();
            let clock = per_call(iterations, clock_pair);
            let plain = per_call(iterations, plain);
            let measured = per_call(iterations, subject.measured);
            drop(session);
            println!("{} clock_pair_ns={clock:.2} plain_ns={plain:.2} measured_ns={measured:.2}", subject.name);
        }
    }
}

#[path = "flow_harness.rs"]
mod flow;
#[path = "io_harness.rs"]
mod io;
// The `overhead` bench drives only the function modes.
#[allow(unused_imports)]
pub(crate) use io::{run_io, IoSubject, Sink, Source};
