//! Platforms without a threads implementation: the view reports that it is unavailable.

use std::io;

use super::OsSample;

pub(crate) fn sample(_main_tid: u64) -> io::Result<OsSample> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "the threads view is not implemented on this platform"))
}

/// The name threads inherit from the process: only Linux threads show it.
pub(crate) fn process_name() -> Option<&'static str> {
    None
}
