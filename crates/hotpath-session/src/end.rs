//! Why a report is produced: the one fact the exit paths (guard drop, signals,
//! `process::exit`) hand to the session.

/// Why the report is being produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The guard was dropped normally.
    MainReturned,
    /// The guard was dropped while unwinding.
    Panic,
    /// SIGINT or SIGTERM.
    Signal,
    /// `std::process::exit` (the `atexit` hook).
    ProcessExit,
    /// The shutdown timer (`HOTPATH_SHUTDOWN_MS`, `build_with_shutdown`).
    Timeout,
    /// A live snapshot; the session goes on.
    Live,
}

impl End {
    /// The report's `meta.ended_by` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::MainReturned => "main_returned",
            Self::Panic => "panic",
            Self::Signal => "signal",
            Self::ProcessExit => "process_exit",
            Self::Timeout => "timeout",
            Self::Live => "live",
        }
    }
}
