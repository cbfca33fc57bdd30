//! Final numbers of threads that exit, so the view keeps threads that ended between
//! two samples, or used CPU after the last sample that saw them.
//!
//! Linux: a thread the profiler touches (its first counted allocation, its first
//! measured call) sets a pthread key whose destructor runs when the thread exits,
//! after its Rust thread-locals are destroyed. The destructor reads the thread's CPU
//! time and name (`getrusage`, `prctl`: no file descriptor) and queues a record for
//! the sampler. Elsewhere nothing is recorded; the sampler keeps the last values it
//! read of a thread that disappeared.

/// What an exiting thread left for the sampler.
pub(crate) struct ExitRecord {
    pub(crate) tid: u64,
    /// The thread's name as the OS shows it (at most 15 bytes); an unnamed thread
    /// shows the name it inherited from the process.
    pub(crate) comm: String,
    pub(crate) user_ns: u64,
    pub(crate) sys_ns: u64,
}

#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) use linux::{cpu as own_cpu, drain, enable, watch};

/// The calling thread's user and system CPU time, where the platform says it cheaply.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn own_cpu() -> Option<(u64, u64)> {
    None
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn enable() {}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn watch() {}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn drain() -> Vec<ExitRecord> {
    Vec::new()
}

#[cfg(any(target_os = "linux", target_os = "android"))]
mod linux {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Mutex;

    use libc::c_void;

    use super::ExitRecord;
    use crate::sync::lock;
    use crate::{memory, os};

    /// Records waiting for the sampler; past this many (threads exiting faster than
    /// the sampler drains) further exits keep the sampler's last values only.
    const MAX_PENDING: usize = 65_536;

    static ENABLED: AtomicBool = AtomicBool::new(false);
    /// The pthread key plus one; 0 until created.
    static KEY: AtomicUsize = AtomicUsize::new(0);
    static PENDING: Mutex<Vec<ExitRecord>> = Mutex::new(Vec::new());

    /// Starts recording exits (the threads sampler runs).
    pub(crate) fn enable() {
        ENABLED.store(true, Ordering::Relaxed);
    }

    /// Asks for this thread's exit record. Cheap, allocation-free, callable from the
    /// allocator; threads touched before the sampler starts are not watched.
    pub(crate) fn watch() {
        if !ENABLED.load(Ordering::Relaxed) {
            return;
        }
        if let Some(key) = key() {
            // SAFETY: `key` is a live key of this process. The value is only a non-null
            // marker (the destructor does not read it). glibc stores it without calling
            // the Rust allocator (its own calloc at most), so this is safe in `alloc`.
            unsafe { libc::pthread_setspecific(key, std::ptr::NonNull::<u8>::dangling().as_ptr().cast()) };
        }
    }

    fn key() -> Option<libc::pthread_key_t> {
        let existing = KEY.load(Ordering::Acquire);
        if existing != 0 {
            return Some((existing - 1) as libc::pthread_key_t);
        }
        let mut key: libc::pthread_key_t = 0;
        // SAFETY: `key` is a live out-parameter and `on_exit` has the destructor's ABI.
        if unsafe { libc::pthread_key_create(&mut key, Some(on_exit)) } != 0 {
            return None;
        }
        match KEY.compare_exchange(0, key as usize + 1, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => Some(key),
            Err(winner) => {
                // SAFETY: our own key, never handed out: another thread created one first.
                unsafe { libc::pthread_key_delete(key) };
                Some((winner - 1) as libc::pthread_key_t)
            }
        }
    }

    /// The key's destructor, on the exiting thread. Must not unwind.
    extern "C" fn on_exit(_marker: *mut c_void) {
        let (user_ns, sys_ns) = cpu().unwrap_or((0, 0));
        memory::untracked(|| {
            let record = ExitRecord { tid: os::current_tid(), comm: comm(), user_ns, sys_ns };
            let mut pending = lock(&PENDING);
            if pending.len() < MAX_PENDING {
                pending.push(record);
            }
        });
    }

    /// This thread's user and system CPU time (one system call, no file descriptor).
    pub(crate) fn cpu() -> Option<(u64, u64)> {
        // SAFETY: rusage is plain data; zeroed is a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `usage` is a live out-parameter.
        if unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) } != 0 {
            return None;
        }
        let ns = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1_000;
        Some((ns(usage.ru_utime), ns(usage.ru_stime)))
    }

    /// This thread's name as `/proc/.../stat` shows it.
    fn comm() -> String {
        let mut buf = [0u8; 16];
        // SAFETY: PR_GET_NAME writes at most 16 bytes, NUL included, into `buf`.
        if unsafe { libc::prctl(libc::PR_GET_NAME, buf.as_mut_ptr()) } != 0 {
            return String::new();
        }
        let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        String::from_utf8_lossy(&buf[..len]).into_owned()
    }

    /// Takes the records queued since the last call.
    pub(crate) fn drain() -> Vec<ExitRecord> {
        std::mem::take(&mut *lock(&PENDING))
    }
}
