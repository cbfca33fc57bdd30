//! The profiler's clock: raw time-stamp counter ticks where the TSC is invariant,
//! otherwise nanoseconds from `Instant`.
//!
//! Ticks are stored as-is on the hot path; conversion to nanoseconds happens when a
//! snapshot is taken, from the ratio of TSC ticks to `Instant` time elapsed since
//! [`init`]. That keeps start-up free of a calibration sleep and makes the ratio more
//! precise the longer the program runs. A histogram's relative error is unchanged by
//! the linear conversion.
//!
//! The TSC is used only when the CPU says it is invariant and, on Linux, the kernel
//! itself keeps time with it (it falls back to another clocksource when it finds the
//! TSC unreliable, for example unsynchronized across sockets). Intervals whose end
//! reads before their start are counted (see `negative`) and recorded as 0.

mod negative;

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub(crate) use negative::total as negative_intervals;

static USE_TSC: AtomicBool = AtomicBool::new(false);
/// Set under Callgrind (`freeze`): every reading is the same tick.
static FROZEN: AtomicBool = AtomicBool::new(false);
/// Tests only (`HOTPATH_OVERHEAD_BUDGET_SHADOW`, `use_thread_cpu`): ticks are the
/// reading thread's CPU time in ns.
static THREAD_CPU: AtomicBool = AtomicBool::new(false);
static ANCHOR: OnceLock<Anchor> = OnceLock::new();

struct Anchor {
    instant: Instant,
    ticks: u64,
    /// Why this clock was chosen, for the report.
    reason: String,
}

/// Reads the current time in ticks. Two of these bracket every measured call.
#[inline(always)]
pub(crate) fn now() -> u64 {
    #[cfg(target_arch = "x86_64")]
    if USE_TSC.load(Relaxed) {
        // SAFETY: RDTSC exists on every x86_64 CPU and has no preconditions.
        return unsafe { core::arch::x86_64::_rdtsc() };
    }
    fallback_now()
}

#[inline(never)]
fn fallback_now() -> u64 {
    if FROZEN.load(Relaxed) {
        return 1;
    }
    if THREAD_CPU.load(Relaxed) {
        return thread_cpu_ns();
    }
    ANCHOR.get().map_or(0, |a| a.instant.elapsed().as_nanos() as u64)
}

/// Stops the clock: from now on every reading is the same tick, so durations are 0
/// and nothing recorded depends on time. Under Callgrind, where instructions are
/// counted instead, reading time would make those counts vary from run to run.
#[cfg(feature = "icount")]
pub(crate) fn freeze() {
    FROZEN.store(true, Relaxed);
    USE_TSC.store(false, Relaxed);
}

/// Tests only (the overhead budget's truth test, `HOTPATH_OVERHEAD_BUDGET_SHADOW`):
/// from now on ticks are the reading thread's CPU time, so a call's duration leaves
/// out the time its thread was preempted. On a loaded machine a preemption lasts
/// milliseconds, and whether it lands in a timed or an untimed call moves an
/// estimate by more than the sampling error the test checks; in CPU time every call
/// of the same work lasts about as long. Durations only: ticks of different threads
/// are not comparable (the timeline and the age of running calls mean nothing then).
pub(crate) fn use_thread_cpu() {
    THREAD_CPU.store(true, Relaxed);
    USE_TSC.store(false, Relaxed);
}

/// The calling thread's CPU time, ns (the budget's accounting, the shadow clock).
pub(crate) fn thread_cpu_ns() -> u64 {
    cpu_ns(CpuClock::Thread)
}

/// The process's CPU time, all threads, ns.
pub(crate) fn process_cpu_ns() -> u64 {
    cpu_ns(CpuClock::Process)
}

enum CpuClock {
    Process,
    Thread,
}

#[cfg(unix)]
fn cpu_ns(which: CpuClock) -> u64 {
    let id = match which {
        CpuClock::Process => libc::CLOCK_PROCESS_CPUTIME_ID,
        CpuClock::Thread => libc::CLOCK_THREAD_CPUTIME_ID,
    };
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock ids are constants.
    if unsafe { libc::clock_gettime(id, &mut ts) } != 0 {
        return 0;
    }
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Without a CPU clock, wall time since the first reading stands in for one core.
#[cfg(not(unix))]
fn cpu_ns(_: CpuClock) -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// `end - start` in ticks. An interval whose end reads before its start (clock reads
/// on CPUs whose counters disagree) is counted as negative and measures 0.
#[inline(always)]
pub(crate) fn elapsed(start: u64, end: u64) -> u64 {
    match end.checked_sub(start) {
        Some(ticks) => ticks,
        None => {
            negative::count();
            0
        }
    }
}

/// Chooses the clock source once per process; later calls do nothing. With
/// `allow_tsc` false (`HOTPATH_CLOCK=monotonic`) the TSC is never used.
pub(crate) fn init(allow_tsc: bool) {
    ANCHOR.get_or_init(|| {
        let kernel = kernel_clocksource();
        let (tsc, reason) = choose(allow_tsc, invariant_tsc(), &kernel.as_str());
        USE_TSC.store(tsc, Relaxed);
        let (ticks, instant) = read_together();
        Anchor { instant, ticks, reason }
    });
}

/// What the kernel says about its own clock.
enum Kernel<S> {
    /// Not asked (not Linux).
    Unchecked,
    /// The current clocksource's name.
    Source(S),
    /// The clocksource could not be read (the error).
    Unknown(S),
}

impl Kernel<String> {
    fn as_str(&self) -> Kernel<&str> {
        match self {
            Self::Unchecked => Kernel::Unchecked,
            Self::Source(name) => Kernel::Source(name.trim()),
            Self::Unknown(e) => Kernel::Unknown(e),
        }
    }
}

/// Whether to use the TSC, and why, in a few words for the report.
fn choose(allow_tsc: bool, invariant: bool, kernel: &Kernel<&str>) -> (bool, String) {
    if !allow_tsc {
        return (false, "HOTPATH_CLOCK=monotonic".into());
    }
    if !invariant {
        return (false, "the CPU has no invariant TSC".into());
    }
    match kernel {
        Kernel::Unchecked => (true, "invariant TSC".into()),
        Kernel::Source("tsc") => (true, "invariant TSC, and the kernel's clocksource is tsc".into()),
        Kernel::Source(other) => (false, format!("the kernel's clocksource is {other}, not tsc")),
        Kernel::Unknown(e) => (false, format!("the kernel's clocksource could not be read ({e})")),
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn kernel_clocksource() -> Kernel<String> {
    const PATH: &str = "/sys/devices/system/clocksource/clocksource0/current_clocksource";
    match crate::small_file::read_small::<256>(PATH) {
        Ok(name) => Kernel::Source(name),
        Err(e) => Kernel::Unknown(e.to_string()),
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn kernel_clocksource() -> Kernel<String> {
    Kernel::Unchecked
}

/// Name of the clock source, for the report: `tsc`, `monotonic`, `frozen` under Callgrind,
/// or `thread_cpu` in the overhead budget's shadow runs (tests only).
pub fn source() -> &'static str {
    if FROZEN.load(Relaxed) {
        "frozen"
    } else if THREAD_CPU.load(Relaxed) {
        "thread_cpu"
    } else if USE_TSC.load(Relaxed) {
        "tsc"
    } else {
        "monotonic"
    }
}

/// Why [`source`] was chosen, in a few words (empty before profiling starts).
pub fn reason() -> &'static str {
    if FROZEN.load(Relaxed) {
        return "running under Callgrind: instructions are counted, durations are not measured";
    }
    if THREAD_CPU.load(Relaxed) {
        return "HOTPATH_OVERHEAD_BUDGET_SHADOW (tests only): each thread's CPU time";
    }
    ANCHOR.get().map_or("", |a| a.reason.as_str())
}

/// Nanoseconds per tick, measured against `Instant` since `init`, without waiting
/// (but for the first `MIN_SPAN`). Every converted duration lies within that span,
/// so its absolute error is at most the uncertainty of the two paired readings
/// (`read_together`: tens of nanoseconds), however short the session: a short
/// program's report does not wait for a longer span, as it once did (1 ms).
pub fn ns_per_tick() -> f64 {
    let Some(anchor) = ANCHOR.get() else { return 1.0 };
    if !USE_TSC.load(Relaxed) {
        return 1.0;
    }
    while anchor.instant.elapsed() < MIN_SPAN {
        std::hint::spin_loop();
    }
    let (ticks, at) = read_together();
    let ticks = ticks.saturating_sub(anchor.ticks).max(1);
    at.saturating_duration_since(anchor.instant).as_nanos() as f64 / ticks as f64
}

/// The shortest span a ratio is measured over: a few thousand times the pairing's
/// uncertainty, so the ratio itself is within about 1e-3 even then.
const MIN_SPAN: Duration = Duration::from_micros(50);

/// The tick count and the `Instant` at one moment: the ticks read between two
/// `Instant`s, paired with their midpoint. A pair whose bracket is wide (the thread
/// was preempted between the readings) is read again, up to a few times, keeping the
/// narrowest.
fn read_together() -> (u64, Instant) {
    let mut best: Option<(Duration, u64, Instant)> = None;
    for _ in 0..4 {
        let before = Instant::now();
        let ticks = now();
        let after = Instant::now();
        let width = after.duration_since(before);
        if best.is_none_or(|(narrowest, ..)| width < narrowest) {
            best = Some((width, ticks, before + width / 2));
        }
        if width < Duration::from_micros(2) {
            break;
        }
    }
    best.map_or_else(|| (now(), Instant::now()), |(_, ticks, at)| (ticks, at))
}

/// About `ms` milliseconds in ticks, without waiting: exact for the monotonic clock; for
/// the TSC, scaled from the ticks counted since [`init`] once a millisecond has passed,
/// and a 4 GHz guess before that (so the first interval of a sampler may run short).
pub(crate) fn ticks_in_ms(ms: u64) -> u64 {
    let Some(anchor) = ANCHOR.get() else { return ms * 1_000_000 };
    if !USE_TSC.load(Relaxed) {
        return ms * 1_000_000;
    }
    let elapsed = anchor.instant.elapsed().as_nanos() as u64;
    if elapsed < 1_000_000 {
        return ms * 4_000_000;
    }
    let ticks = now().saturating_sub(anchor.ticks);
    (ticks as f64 / elapsed as f64 * ms as f64 * 1_000_000.0) as u64
}

/// About `ns` nanoseconds in ticks, without waiting, and whether the figure is settled
/// (the TSC's rate measured over at least a second, or the monotonic clock).
pub(crate) fn ticks_in_ns(ns: u64) -> (u64, bool) {
    let Some(anchor) = ANCHOR.get() else { return (ns, false) };
    if !USE_TSC.load(Relaxed) {
        return (ns, true);
    }
    let elapsed = anchor.instant.elapsed().as_nanos() as u64;
    if elapsed < 1_000_000 {
        return (ns.saturating_mul(4), false);
    }
    let ticks = now().saturating_sub(anchor.ticks);
    ((ticks as f64 / elapsed as f64 * ns as f64) as u64, elapsed >= 1_000_000_000)
}

/// Converts a tick count with a ratio from [`ns_per_tick`].
#[inline]
pub(crate) fn to_ns(ticks: u64, ratio: f64) -> u64 {
    (ticks as f64 * ratio).round() as u64
}

#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)] // __cpuid became safe to call in Rust 1.94
fn invariant_tsc() -> bool {
    use core::arch::x86_64::__cpuid;
    // SAFETY: CPUID is available on every x86_64 CPU.
    let max_extended = unsafe { __cpuid(0x8000_0000) }.eax;
    // CPUID.80000007H:EDX[8] is "invariant TSC": constant rate, runs in deep sleep states.
    max_extended >= 0x8000_0007 && {
        // SAFETY: as above; the leaf exists (checked against the maximum just read).
        let edx = unsafe { __cpuid(0x8000_0007) }.edx;
        edx & (1 << 8) != 0
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn invariant_tsc() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsc_only_when_invariant_and_the_kernel_uses_it() {
        let tsc = Kernel::Source("tsc");
        assert_eq!(choose(true, true, &tsc), (true, "invariant TSC, and the kernel's clocksource is tsc".into()));
        let (use_tsc, why) = choose(true, true, &Kernel::Source("hpet"));
        assert!(!use_tsc && why == "the kernel's clocksource is hpet, not tsc", "{why}");
        let (use_tsc, why) = choose(true, true, &Kernel::Unknown("No such file or directory (os error 2)"));
        assert!(!use_tsc && why.starts_with("the kernel's clocksource could not be read"), "{why}");
        assert!(!choose(true, false, &tsc).0, "no invariant bit: never the TSC");
        assert_eq!(choose(false, true, &tsc), (false, "HOTPATH_CLOCK=monotonic".into()));
        assert_eq!(choose(true, true, &Kernel::Unchecked), (true, "invariant TSC".into()));
    }

    #[test]
    fn negative_intervals_are_counted_and_measure_zero() {
        let before = negative_intervals();
        assert_eq!(elapsed(10, 25), 15);
        assert_eq!(elapsed(25, 10), 0);
        std::thread::spawn(|| assert_eq!(elapsed(7, 3), 0)).join().unwrap();
        assert!(negative_intervals() >= before + 2);
    }

    #[test]
    fn ticks_advance_and_convert() {
        init(true);
        let a = now();
        std::thread::sleep(Duration::from_millis(2));
        let b = now();
        assert!(b > a);
        let ns = to_ns(b - a, ns_per_tick());
        assert!(ns >= 2_000_000, "slept 2 ms, measured {ns} ns");
    }
}
