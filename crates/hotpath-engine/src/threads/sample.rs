//! What one sample of the process holds: its threads, as the OS describes them.

/// What the OS says about one thread.
pub(crate) struct OsThread {
    pub(crate) tid: u64,
    /// The thread's name; `None` when it has none of its own.
    pub(crate) name: Option<String>,
    pub(crate) state: State,
    pub(crate) user_ns: u64,
    pub(crate) sys_ns: u64,
}

/// Execution state, as the report names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// On a CPU, or ready to run.
    Running,
    /// Parked or waiting.
    Sleeping,
    /// In an uninterruptible wait, usually disk I/O (not observable on Windows).
    #[cfg(not(windows))]
    Blocked,
}

impl State {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Running => "Running",
            Self::Sleeping => "Sleeping",
            #[cfg(not(windows))]
            Self::Blocked => "Blocked",
        }
    }
}

/// One sample of the whole process.
pub(crate) struct OsSample {
    /// Threads that were read.
    pub(crate) threads: Vec<OsThread>,
    /// Threads that exist but were not read (could not be, for example with no file
    /// descriptor left, or the profiler's own, left unread): alive, their numbers
    /// unknown. Never taken for exited.
    pub(crate) unreadable: Vec<u64>,
    /// `None` when it could not be read.
    pub(crate) rss_bytes: Option<u64>,
    /// What could not be read, for the report.
    pub(crate) problem: Option<String>,
}

/// Whether samples leave the profiler's own threads (known by OS id) unread: the view
/// hides them unless `HOTPATH_SHOW_INTERNAL_THREADS` asks for them (Linux, where each
/// thread is a file to read).
pub(crate) static SKIP_PROFILER_THREADS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

impl OsSample {
    /// CPU time (user, system) by OS id of the sampled threads; left out: `main_tid`
    /// unless `with_main`, and the profiler's threads. For platforms where one full
    /// sample is how the threads running at the session's start are read.
    #[cfg_attr(any(target_os = "linux", target_os = "android"), allow(dead_code))]
    pub(crate) fn cpu_by_thread(&self, main_tid: u64, with_main: bool) -> std::collections::HashMap<u64, (u64, u64)> {
        self.threads
            .iter()
            .filter(|t| (with_main || t.tid != main_tid) && !crate::memory::is_profiler_thread(t.tid, ""))
            .map(|t| (t.tid, (t.user_ns, t.sys_ns)))
            .collect()
    }

    /// A sample that read everything.
    pub(crate) fn complete(threads: Vec<OsThread>, rss_bytes: u64) -> Self {
        Self { threads, unreadable: Vec::new(), rss_bytes: Some(rss_bytes), problem: None }
    }

    /// Every thread that exists: those read and those that could not be.
    pub(crate) fn alive(&self) -> Vec<u64> {
        self.threads.iter().map(|t| t.tid).chain(self.unreadable.iter().copied()).collect()
    }
}
