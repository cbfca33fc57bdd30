//! Threads that ended before the report stay in the threads view, status `Exited`,
//! with their final CPU time, ranked with the live ones; at most 256 are kept.
#![cfg(all(feature = "hotpath", feature = "threads", target_os = "linux"))]

use std::time::Duration;

use hotpath::__private::{snapshot, MainConfig, MainGuard};
use hotpath_model::ThreadRow;

const BURN: Duration = Duration::from_millis(800);

/// CPU time of the calling thread.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a live out-parameter.
    assert_eq!(unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) }, 0);
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Computes until this thread has used `cpu` of CPU time.
#[hotpath::measure]
fn burn(cpu: Duration) -> u64 {
    let mut x = 1u64;
    while thread_cpu() < cpu {
        for _ in 0..10_000 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
    x
}

#[hotpath::measure]
fn tiny() {}

fn cpu_ns(r: &ThreadRow) -> u64 {
    r.cpu_user_ns + r.cpu_sys_ns
}

#[test]
fn ended_threads_keep_their_final_numbers() {
    // Long enough that no periodic sample sees the threads below alive: only their
    // exit (and the report's own sample) can tell about them.
    std::env::set_var("HOTPATH_THREADS_INTERVAL_MS", "60000");
    std::env::set_var("HOTPATH_THREADS_LIMIT", "1000");
    let _session = MainGuard::start(MainConfig::new("thread_exits::test").format("none"));

    let burner = std::thread::Builder::new().name("burner".into()).spawn(|| burn(BURN)).unwrap();
    burner.join().unwrap();
    // More short threads than the view keeps.
    for batch in 0..3 {
        let handles: Vec<_> = (0..100)
            .map(|i| std::thread::Builder::new().name(format!("short-{batch}-{i}")).spawn(tiny).unwrap())
            .collect();
        handles.into_iter().for_each(|h| h.join().unwrap());
    }

    let threads = snapshot().unwrap().threads.expect("threads section");
    let rows = &threads.rows;
    let burner = rows.iter().find(|r| r.name == "burner").unwrap_or_else(|| panic!("no burner: {rows:#?}"));
    assert_eq!(burner.status, "Exited");
    assert!(cpu_ns(burner) >= BURN.as_nanos() as u64 - 5_000_000, "final CPU time: {burner:?}");
    assert_eq!(rows[0].name, "burner", "ranked by CPU time with the live threads");
    assert!(rows.iter().any(|r| r.name == "main" && r.status != "Exited"));

    let exited = rows.iter().filter(|r| r.status == "Exited").count();
    assert_eq!(exited, 256, "the 256 busiest ended threads are kept");
    assert_eq!(threads.exited_dropped, 301 - 256, "the others are counted");
    assert_eq!(threads.total_threads, rows.len() + 45);
}
