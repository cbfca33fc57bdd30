//! The few operating-system facts the runtime needs everywhere.

/// The OS id of the calling thread: what `top -H`, gdb and the threads view show.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn current_tid() -> u64 {
    // SAFETY: gettid has no arguments and cannot fail.
    unsafe { libc::syscall(libc::SYS_gettid) as u64 }
}

/// The OS id of the calling thread (`pthread_threadid_np`).
#[cfg(target_vendor = "apple")]
pub(crate) fn current_tid() -> u64 {
    let mut tid = 0u64;
    // SAFETY: a null thread means the calling thread; `tid` is a live out-parameter.
    unsafe { libc::pthread_threadid_np(0, &mut tid) };
    tid
}

/// The OS id of the calling thread (`GetCurrentThreadId`).
#[cfg(windows)]
pub(crate) fn current_tid() -> u64 {
    // SAFETY: no preconditions.
    u64::from(unsafe { windows_sys::Win32::System::Threading::GetCurrentThreadId() })
}

/// Fallback where no OS id is available: a per-thread number.
#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple", windows)))]
pub(crate) fn current_tid() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local!(static ID: u64 = NEXT.fetch_add(1, Ordering::Relaxed));
    ID.with(|id| *id)
}
