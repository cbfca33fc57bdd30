//! Linux: per-thread CPU-time timers that send [`SAMPLE_SIGNAL`] to their thread,
//! and the signal handler that records a raw sample.
//!
//! Each sampled thread gets a POSIX timer on its own CPU-time clock
//! (`MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)`, the clock `pthread_getcpuclockid`
//! returns) with `SIGEV_THREAD_ID`, so a thread is interrupted after every period
//! of CPU it consumes and never while it sleeps. No privileges are needed.
//!
//! The signal is a real-time one, not SIGPROF: a program's own SIGPROF handler or
//! `setitimer(ITIMER_PROF)` (its own profiler, say) gets its own signals only, and
//! ours never reach it. A signal that is not one of our timers' (checked by the
//! value each timer carries) is not recorded.
//!
//! The handler only does async-signal-safe work: it reads the interrupted registers
//! from the `ucontext`, copies up to 16 KiB of stack with `process_vm_readv` on our
//! own pid (which fails cleanly instead of faulting at the end of the stack mapping),
//! copies the measured-site stack, and publishes the slot. Unwinding happens later,
//! on the `hp-cpu` thread.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use libc::{c_int, c_void};

use super::sample::{RawSample, RING, STACK_BYTES};
use crate::record::stack;

/// Set when `process_vm_readv` is refused (for example by a seccomp policy): samples
/// still carry measured functions, but no native stack.
pub(crate) static STACK_READ_FAILED: AtomicBool = AtomicBool::new(false);

/// The signal of our timers: `SIGRTMAX - 2` (62 with glibc), high in the real-time
/// range where programs rarely look (they allocate from `SIGRTMIN` up).
pub(crate) fn sample_signal() -> c_int {
    libc::SIGRTMAX() - 2
}

/// The name of [`sample_signal`] in warnings.
pub(crate) fn signal_name() -> String {
    format!("SIGRTMAX-2 (signal {})", sample_signal())
}

/// Carried by every timer of ours (`sigev_value`): its address tells our signals apart.
static COOKIE: u8 = 0;

fn cookie() -> usize {
    &COOKIE as *const u8 as usize
}

thread_local! {
    static TID: Cell<u64> = const { Cell::new(0) };
}

fn tid() -> u64 {
    TID.with(|t| {
        if t.get() == 0 {
            // SAFETY: gettid has no preconditions and is async-signal-safe.
            t.set(unsafe { libc::syscall(libc::SYS_gettid) } as u64);
        }
        t.get()
    })
}

extern "C" fn on_sample(_signal: c_int, info: *mut libc::siginfo_t, context: *mut c_void) {
    // SAFETY: errno is thread-local; saved and restored around our syscalls.
    let errno = unsafe { *libc::__errno_location() };
    // SAFETY: SA_SIGINFO handlers get a valid siginfo; for POSIX timers it carries the
    // overrun count and the timer's value (the timer union after the common header).
    if let Some(overrun) = unsafe { our_timer(info) } {
        RING.push(|sample| record(sample, context, 1 + u64::from(overrun)));
    }
    // SAFETY: as above: this thread's errno, restored to what the program left there.
    unsafe { *libc::__errno_location() = errno };
}

/// `si_overrun` of a signal sent by one of our timers, `None` for any other: the union
/// after `si_signo, si_errno, si_code` (and padding to 8 bytes on 64-bit) starts with
/// `si_tid: i32, si_overrun: i32, si_sigval`.
///
/// # Safety
/// `info` points to the `siginfo_t` the kernel passed to an `SA_SIGINFO` handler.
unsafe fn our_timer(info: *const libc::siginfo_t) -> Option<u32> {
    #[repr(C)]
    struct TimerInfo {
        signo: c_int,
        errno: c_int,
        code: c_int,
        #[cfg(target_pointer_width = "64")]
        _pad: c_int,
        tid: c_int,
        overrun: c_int,
        value: usize,
    }
    // SAFETY: a siginfo_t is 128 bytes, larger than `TimerInfo`, and as aligned (the
    // caller passes a valid one); `TimerInfo` is its layout for timer signals.
    let timer = unsafe { &*(info as *const TimerInfo) };
    (timer.code == libc::SI_TIMER && timer.value == cookie()).then(|| timer.overrun.max(0) as u32)
}

fn record(sample: &mut RawSample, context: *mut c_void, weight: u64) {
    sample.tid = tid();
    sample.weight = weight;
    (sample.ip, sample.sp, sample.bp) = registers(context);
    sample.stack_len = if sample.sp == 0 { 0 } else { copy_stack(sample.sp, &mut sample.stack) };
    let (n, truncated) = stack::copy(&mut sample.ids);
    sample.ids_len = n;
    sample.truncated = truncated;
}

#[cfg(target_arch = "x86_64")]
fn registers(context: *mut c_void) -> (u64, u64, u64) {
    // SAFETY: the kernel passes a valid ucontext_t to an SA_SIGINFO handler.
    let regs = unsafe { &(*(context as *const libc::ucontext_t)).uc_mcontext.gregs };
    let reg = |r: c_int| regs[r as usize] as u64;
    (reg(libc::REG_RIP), reg(libc::REG_RSP), reg(libc::REG_RBP))
}

/// Native stacks are only unwound on x86_64; elsewhere samples carry measured
/// functions only.
#[cfg(not(target_arch = "x86_64"))]
fn registers(_context: *mut c_void) -> (u64, u64, u64) {
    (0, 0, 0)
}

/// Copies stack memory from `sp` upwards, page by page, stopping at the first
/// unreadable page. Returns the number of bytes copied.
fn copy_stack(sp: u64, out: &mut [u8; STACK_BYTES]) -> usize {
    const PAGE: u64 = 4096;
    let mut remote = [libc::iovec { iov_base: std::ptr::null_mut(), iov_len: 0 }; STACK_BYTES / 4096 + 1];
    let (mut at, mut parts) = (sp, 0);
    while (at - sp) < STACK_BYTES as u64 && parts < remote.len() {
        let end = ((at / PAGE + 1) * PAGE).min(sp + STACK_BYTES as u64);
        remote[parts] = libc::iovec { iov_base: at as *mut c_void, iov_len: (end - at) as usize };
        parts += 1;
        at = end;
    }
    let local = libc::iovec { iov_base: out.as_mut_ptr().cast(), iov_len: STACK_BYTES };
    // SAFETY: reads our own memory into `out`; the kernel validates the remote ranges.
    let n = unsafe { libc::process_vm_readv(libc::getpid(), &local, 1, remote.as_ptr(), parts as _, 0) };
    if n < 0 {
        STACK_READ_FAILED.store(true, Ordering::Relaxed);
        0
    } else {
        n as usize
    }
}

fn handler() -> libc::sighandler_t {
    on_sample as extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) as libc::sighandler_t
}

fn disposition() -> libc::sighandler_t {
    // SAFETY: a null new action only queries the current one into `old`.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(sample_signal(), std::ptr::null(), &mut old);
        old.sa_sigaction
    }
}

/// Installs our handler unless the program handles the signal; returns the
/// disposition it replaced (default or ignore), for [`uninstall`].
pub(crate) fn install() -> Result<libc::sighandler_t, String> {
    let previous = disposition();
    if previous != libc::SIG_DFL && previous != libc::SIG_IGN {
        return Err(format!("the program already handles {}", signal_name()));
    }
    if !set(handler(), libc::SA_SIGINFO | libc::SA_RESTART) {
        return Err(format!("sigaction failed: {}", std::io::Error::last_os_error()));
    }
    Ok(previous)
}

/// True while our handler is the installed one (the program has not replaced it).
pub(crate) fn is_ours() -> bool {
    disposition() == handler()
}

/// Gives the signal back its `previous` disposition, if our handler is still the
/// installed one (a program's handler installed since stays). Ignored first: that
/// discards a signal of a deleted timer still pending on a thread that blocks it,
/// which the default action would turn into the end of the process.
pub(crate) fn uninstall(previous: libc::sighandler_t) {
    if is_ours() {
        set(libc::SIG_IGN, 0);
        set(previous, 0);
    }
}

fn set(handler: libc::sighandler_t, flags: c_int) -> bool {
    // SAFETY: a zeroed sigaction with an empty mask and a handler that is ours, a
    // disposition we found installed, or SIG_IGN is well formed.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler;
        action.sa_flags = flags;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(sample_signal(), &action, std::ptr::null_mut()) == 0
    }
}

/// A CPU-time timer of one thread.
pub(crate) struct ThreadTimer(libc::timer_t);

// SAFETY: a timer id is a plain kernel handle, usable from any thread.
unsafe impl Send for ThreadTimer {}

impl ThreadTimer {
    /// Fires [`sample_signal`] at thread `tid` after every `period_ns` of its CPU time.
    pub(crate) fn start(tid: u64, period_ns: u64) -> std::io::Result<Self> {
        // MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED): ~tid << 3 | PERTHREAD (4) | SCHED (2).
        let clock = ((!(tid as libc::clockid_t)) << 3) | 6;
        // SAFETY: a zeroed sigevent with the fields SIGEV_THREAD_ID needs; out-params are locals.
        unsafe {
            let mut event: libc::sigevent = std::mem::zeroed();
            event.sigev_notify = libc::SIGEV_THREAD_ID;
            event.sigev_signo = sample_signal();
            event.sigev_notify_thread_id = tid as c_int;
            event.sigev_value = libc::sigval { sival_ptr: cookie() as *mut c_void };
            let mut timer: libc::timer_t = std::ptr::null_mut();
            if libc::timer_create(clock, &mut event, &mut timer) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            let period = libc::timespec {
                tv_sec: (period_ns / 1_000_000_000) as libc::time_t,
                tv_nsec: (period_ns % 1_000_000_000) as libc::c_long,
            };
            let spec = libc::itimerspec { it_interval: period, it_value: period };
            if libc::timer_settime(timer, 0, &spec, std::ptr::null_mut()) != 0 {
                let e = std::io::Error::last_os_error();
                libc::timer_delete(timer);
                return Err(e);
            }
            Ok(Self(timer))
        }
    }
}

impl Drop for ThreadTimer {
    fn drop(&mut self) {
        // SAFETY: created by timer_create and deleted once.
        unsafe { libc::timer_delete(self.0) };
    }
}
