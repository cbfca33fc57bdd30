//! CPU figures start when the session starts: CPU a thread used before (under `cargo
//! run`, cargo's own work on the thread it then execs the program on) is left out.
#![cfg(all(feature = "hotpath", feature = "threads", target_os = "linux"))]

use std::time::{Duration, Instant};

use hotpath::__private::{snapshot, MainConfig, MainGuard};

/// The calling thread's CPU time, read by the program itself.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a live out-parameter; the clock id is a constant Linux knows.
    assert_eq!(unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) }, 0);
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn burn(cpu: Duration) {
    let until = thread_cpu() + cpu;
    let mut x = 1u64;
    while thread_cpu() < until {
        for _ in 0..10_000 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}

#[test]
fn cpu_before_the_session_is_not_counted() {
    std::env::set_var("HOTPATH_THREADS_INTERVAL_MS", "50");
    burn(Duration::from_millis(400));
    let at_start = thread_cpu();
    let session = MainGuard::start(MainConfig::new("threads_cpu_since_start::test").format("none"));
    let wall = Instant::now();
    burn(Duration::from_millis(100));
    std::thread::sleep(Duration::from_millis(120)); // a sample or two in between
    burn(Duration::from_millis(100));
    let threads = snapshot().unwrap().threads.expect("threads section");
    let in_session = thread_cpu() - at_start;
    drop(session);
    let main = threads.rows.iter().find(|r| r.name == "main").unwrap_or_else(|| panic!("{threads:#?}"));
    let reported = Duration::from_nanos(main.cpu_user_ns + main.cpu_sys_ns);
    // The OS counts in clock ticks (10 ms): allow a few on either side.
    let slack = Duration::from_millis(40);
    assert!(
        reported + slack >= in_session && reported <= in_session + slack,
        "main reported {reported:?}, used {in_session:?} in the session (400 ms before it), wall {:?}",
        wall.elapsed()
    );
}
