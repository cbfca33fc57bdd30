//! Linux: per-thread CPU-time timers that send SIGPROF to their thread, and the
//! signal handler that records a raw sample.
//!
//! Each sampled thread gets a POSIX timer on its own CPU-time clock
//! (`MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)`, the clock `pthread_getcpuclockid`
//! returns) with `SIGEV_THREAD_ID`, so a thread is interrupted after every period
//! of CPU it consumes and never while it sleeps. No privileges are needed.
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
use super::stack;

/// Set when `process_vm_readv` is refused (for example by a seccomp policy): samples
/// still carry measured functions, but no native stack.
pub(crate) static STACK_READ_FAILED: AtomicBool = AtomicBool::new(false);

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

extern "C" fn on_sigprof(_signal: c_int, info: *mut libc::siginfo_t, context: *mut c_void) {
    // SAFETY: errno is thread-local; saved and restored around our syscalls.
    let errno = unsafe { *libc::__errno_location() };
    // SAFETY: SA_SIGINFO handlers get a valid siginfo; for POSIX timers it carries the
    // overrun count (si_overrun follows si_tid in the timer union: read via the accessor
    // layout of `siginfo_t` as two i32 after the common header).
    let overrun = unsafe { timer_overrun(info) };
    RING.push(|sample| record(sample, context, 1 + u64::from(overrun)));
    // SAFETY: as above: this thread's errno, restored to what the program left there.
    unsafe { *libc::__errno_location() = errno };
}

/// `si_overrun` of a timer signal: the union after `si_signo, si_errno, si_code` (and
/// padding to 8 bytes on 64-bit) starts with `si_tid: i32, si_overrun: i32`.
///
/// # Safety
/// `info` points to the `siginfo_t` the kernel passed to an `SA_SIGINFO` handler.
unsafe fn timer_overrun(info: *const libc::siginfo_t) -> u32 {
    #[repr(C)]
    struct TimerInfo {
        signo: c_int,
        errno: c_int,
        code: c_int,
        #[cfg(target_pointer_width = "64")]
        _pad: c_int,
        tid: c_int,
        overrun: c_int,
    }
    // SAFETY: a siginfo_t is 128 bytes, larger than `TimerInfo`, and as aligned (the
    // caller passes a valid one); `TimerInfo` is its layout for timer signals.
    let timer = unsafe { &*(info as *const TimerInfo) };
    if timer.code == libc::SI_TIMER {
        timer.overrun.max(0) as u32
    } else {
        0
    }
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

/// Installs the SIGPROF handler unless the program already handles SIGPROF.
pub(crate) fn install() -> Result<(), String> {
    // SAFETY: queries, then sets, the SIGPROF disposition with a valid handler.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGPROF, std::ptr::null(), &mut old);
        if old.sa_sigaction != libc::SIG_DFL && old.sa_sigaction != libc::SIG_IGN {
            return Err("the program already handles SIGPROF".into());
        }
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigprof as extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) as usize;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        if libc::sigaction(libc::SIGPROF, &action, std::ptr::null_mut()) != 0 {
            return Err(format!("sigaction failed: {}", std::io::Error::last_os_error()));
        }
    }
    Ok(())
}

/// A CPU-time timer of one thread.
pub(crate) struct ThreadTimer(libc::timer_t);

// SAFETY: a timer id is a plain kernel handle, usable from any thread.
unsafe impl Send for ThreadTimer {}

impl ThreadTimer {
    /// Fires SIGPROF at thread `tid` after every `period_ns` of its CPU time.
    pub(crate) fn start(tid: u64, period_ns: u64) -> std::io::Result<Self> {
        // MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED): ~tid << 3 | PERTHREAD (4) | SCHED (2).
        let clock = ((!(tid as libc::clockid_t)) << 3) | 6;
        // SAFETY: a zeroed sigevent with the fields SIGEV_THREAD_ID needs; out-params are locals.
        unsafe {
            let mut event: libc::sigevent = std::mem::zeroed();
            event.sigev_notify = libc::SIGEV_THREAD_ID;
            event.sigev_signo = libc::SIGPROF;
            event.sigev_notify_thread_id = tid as c_int;
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
