//! Burns CPU in two measured functions in a 3:1 ratio of CPU time (measured with the
//! thread's own CPU clock, so machine load does not change the ratio), sleeps in a
//! third, and burns in a thread started after profiling began.

use std::time::{Duration, Instant};

/// This thread's CPU time.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: writes into a live timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[inline(never)]
fn spin_for_cpu(amount: Duration) -> u64 {
    let until = thread_cpu() + amount;
    let mut x = 1u64;
    while thread_cpu() < until {
        for _ in 0..1000 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407));
        }
    }
    x
}

#[hotpath::measure]
fn heavy() -> u64 {
    spin_for_cpu(Duration::from_millis(30))
}

#[hotpath::measure]
fn light() -> u64 {
    spin_for_cpu(Duration::from_millis(10))
}

#[hotpath::measure]
fn sleeper() {
    std::thread::sleep(Duration::from_millis(400));
}

#[hotpath::measure]
fn late_thread_work() -> u64 {
    spin_for_cpu(Duration::from_millis(200))
}

#[hotpath::main(cpu_output = "target/hotpath-cpu-default")]
fn main() {
    let start = Instant::now();
    let mut acc = 0;
    for _ in 0..20 {
        acc ^= heavy();
        acc ^= light();
        // The timer's expiries are found at the kernel's ticks (4 ms at HZ=250), and an
        // iteration of exactly 40 ms of CPU would meet the tick at the same phase every
        // time: light's 2.5 ticks would get 2 or 3 ticks' samples in every call (ratios
        // 2.3 to 4.0 measured). Half a millisecond more each iteration sweeps the phase
        // over 10 ms in 20 iterations, so each function's samples follow its CPU time.
        acc ^= spin_for_cpu(Duration::from_micros(500));
    }
    sleeper();
    // Started after profiling began, and after the first timer scan.
    std::thread::sleep(Duration::from_millis(150));
    let late = std::thread::Builder::new().name("late-worker".into()).spawn(late_thread_work).unwrap();
    acc ^= late.join().unwrap();
    std::hint::black_box(acc);
    eprintln!("ran for {:?}", start.elapsed());
}
