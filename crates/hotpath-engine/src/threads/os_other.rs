//! Platforms without a threads implementation: the view reports that it is unavailable.

use std::io;

use super::OsSample;

pub(crate) fn sample(_main_tid: u64) -> io::Result<OsSample> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "the threads view is not implemented on this platform"))
}

/// CPU time of the threads running now (see the Linux version), from one sample.
pub(crate) fn others_at_start(main_tid: u64, with_main: bool) -> std::collections::HashMap<u64, (u64, u64)> {
    sample(main_tid).map(|s| s.cpu_by_thread(main_tid, with_main)).unwrap_or_default()
}

/// The name threads inherit from the process: only Linux threads show it.
pub(crate) fn process_name() -> Option<&'static str> {
    None
}
