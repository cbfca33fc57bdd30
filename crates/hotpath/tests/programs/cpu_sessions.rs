//! CPU sampling next to the program's own signals. The first argument picks:
//!
//! - `two`: two sessions one after the other, each burning CPU; between them the
//!   sampling signal's disposition is printed (`between: default`).
//! - `sigprof`: the program installs its own SIGPROF handler after start and arms no timer.
//! - `itimer`: the same handler, and `setitimer(ITIMER_PROF)` armed after start.
//! - `taken`: once the sampler's timers are armed (read from `/proc/self/timers`), the
//!   program installs its own handler for the sampling signal (SIGRTMAX-2) and waits
//!   until the sampler has deleted them.
//!
//! The handler counts the signals it gets (`ours`: from its own ITIMER_PROF, `other`:
//! any else), printed as `signals: ours=N other=M` before the guard is dropped.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

static OURS: AtomicU64 = AtomicU64::new(0);
static OTHER: AtomicU64 = AtomicU64::new(0);

fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: writes into a live timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[hotpath::measure]
fn burn(amount: Duration) -> u64 {
    let until = thread_cpu() + amount;
    let mut x = 1u64;
    while thread_cpu() < until {
        for _ in 0..1000 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407));
        }
    }
    x
}

extern "C" fn counting(_signal: libc::c_int, info: *mut libc::siginfo_t, _context: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
    let code = unsafe { (*info).si_code };
    if code == libc::SI_KERNEL { &OURS } else { &OTHER }.fetch_add(1, Relaxed);
}

fn handle(signal: libc::c_int) {
    // SAFETY: a zeroed sigaction with an empty mask and a valid SA_SIGINFO handler.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = counting as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) as usize;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        assert_eq!(libc::sigaction(signal, &action, std::ptr::null_mut()), 0);
    }
}

fn disposition(signal: libc::c_int) -> &'static str {
    // SAFETY: a null new action only queries the current one.
    let handler = unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old);
        old.sa_sigaction
    };
    match handler {
        libc::SIG_DFL => "default",
        libc::SIG_IGN => "ignored",
        h if h == counting as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) as usize => "program",
        _ => "other",
    }
}

/// Waits (up to 60 s, whatever the machine's load) until `/proc/self/timers` lists a
/// POSIX timer that sends `signal`, or lists none when `armed` is false.
fn await_timers(signal: libc::c_int, armed: bool) {
    let entry = format!("signal: {signal}/");
    let until = std::time::Instant::now() + Duration::from_secs(60);
    while std::time::Instant::now() < until {
        let timers = std::fs::read_to_string("/proc/self/timers").expect("/proc/self/timers is readable");
        if timers.contains(&entry) == armed {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the sampler's timers are {} after 60 s", if armed { "still missing" } else { "still armed" });
}

fn itimer(interval_us: i64) {
    let t = libc::timeval { tv_sec: 0, tv_usec: interval_us };
    let spec = libc::itimerval { it_interval: t, it_value: t };
    // SAFETY: a valid itimerval; the old value is not wanted.
    assert_eq!(unsafe { libc::setitimer(libc::ITIMER_PROF, &spec, std::ptr::null_mut()) }, 0);
}

fn session(name: &'static str) -> hotpath::HotpathGuard {
    hotpath::HotpathGuardBuilder::new(name).format(hotpath::Format::Json).build()
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let sampling = libc::SIGRTMAX() - 2;
    let guard = session("cpu_sessions::first");
    match mode.as_str() {
        "two" => {
            burn(Duration::from_millis(300));
            drop(guard);
            println!("between: {}", disposition(sampling));
            let second = session("cpu_sessions::second");
            burn(Duration::from_millis(300));
            drop(second);
            return;
        }
        "sigprof" => handle(libc::SIGPROF),
        "itimer" => {
            handle(libc::SIGPROF);
            itimer(5_000);
        }
        "taken" => {
            // The sampler has armed its timer for this thread before the program takes
            // the signal, and is seen to delete it (on one of its ticks) before the burn.
            await_timers(sampling, true);
            handle(sampling);
            await_timers(sampling, false);
            OTHER.store(0, Relaxed);
        }
        _ => panic!("unknown mode {mode:?}"),
    }
    burn(Duration::from_millis(400));
    itimer(0);
    println!("signals: ours={} other={}", OURS.load(Relaxed), OTHER.load(Relaxed));
    drop(guard);
    let watched = if mode == "taken" { sampling } else { libc::SIGPROF };
    println!("after: {}", disposition(watched));
}
