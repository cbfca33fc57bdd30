//! Calls in flight whose ages the program knows by its own clock: a sync call blocked
//! on a thread, three async calls on a Tokio runtime, and `main`, none of which returns
//! until stdin closes. Each line read from stdin gets an answer on stderr:
//! `lower <sync> <async> <main>` (nanoseconds since each call's first line: its age is
//! at least that) or `upper <sync> <async>` (since just before each call was made: its
//! age is at most that); for the async calls, of the oldest.

use std::io::BufRead;
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// (kind, before the call, its first line).
static STAMPS: Mutex<Vec<(&str, Instant, Instant)>> = Mutex::new(Vec::new());

fn stamp(kind: &'static str, before: Instant) {
    STAMPS.lock().unwrap().push((kind, before, Instant::now()));
}

/// The largest `f` of the calls of `kind`, in nanoseconds.
fn oldest(kind: &str, f: impl Fn(&(&str, Instant, Instant)) -> Duration) -> u128 {
    STAMPS.lock().unwrap().iter().filter(|s| s.0 == kind).map(|s| f(s).as_nanos()).max().unwrap_or(0)
}

#[hotpath::measure]
fn hold_sync(before: Instant, stop: mpsc::Receiver<()>) {
    stamp("sync", before);
    let _ = stop.recv();
}

#[hotpath::measure]
async fn hold_async(before: Instant) {
    stamp("async", before);
    loop {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[hotpath::main]
fn main() {
    let main_entered = Instant::now();
    let (stop, stopped) = mpsc::channel();
    let before = Instant::now();
    let holder = std::thread::Builder::new().name("holder".into()).spawn(move || hold_sync(before, stopped)).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_time().build().unwrap();
    for _ in 0..3 {
        let before = Instant::now();
        runtime.spawn(hold_async(before));
    }
    while STAMPS.lock().unwrap().len() < 4 {
        std::thread::sleep(Duration::from_millis(5));
    }
    // Ages long enough that a unit error (ticks for nanoseconds) cannot hide in the slack.
    std::thread::sleep(Duration::from_millis(300));
    eprintln!("ready");
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let entered = |s: &(&str, Instant, Instant)| s.2.elapsed();
        let made = |s: &(&str, Instant, Instant)| s.1.elapsed();
        match line.trim() {
            "lower" => eprintln!(
                "lower {} {} {}",
                oldest("sync", entered),
                oldest("async", entered),
                main_entered.elapsed().as_nanos()
            ),
            "upper" => eprintln!("upper {} {}", oldest("sync", made), oldest("async", made)),
            _ => {}
        }
    }
    drop(stop);
    holder.join().unwrap();
    runtime.shutdown_background();
}
