//! The threads view (`threads` feature): per-thread CPU time, CPU%, state and, with
//! `alloc`, bytes allocated and freed.
//!
//! A profiler thread (`hp-threads`, hidden from the view) samples the OS every
//! `HOTPATH_THREADS_INTERVAL_MS`; the report takes one more sample at its end.
//! - `os_*`: one file per platform, each returning the same [`OsSample`].
//! - `sample`: what one OS sample holds.
//! - `sampler`: the sampling thread and the per-thread history (CPU%, Max%).
//! - `exited`: the ended threads the view keeps, from the final numbers that exiting
//!   threads leave (`record::exit_hook`, Linux).
//! - `section`: the `threads` report section; the profiler's own threads are `memory`'s.

mod exited;
#[cfg(any(target_os = "linux", target_os = "android"))]
#[path = "os_linux.rs"]
mod os;
#[cfg(target_vendor = "apple")]
#[path = "os_macos.rs"]
mod os;
#[cfg(windows)]
#[path = "os_windows.rs"]
mod os;
#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple", windows)))]
#[path = "os_other.rs"]
mod os;
mod sample;
mod sampler;
mod section;

pub(crate) use sample::{OsSample, OsThread, State};
pub(crate) use sampler::{sample_now, start};
pub(crate) use section::section;
