//! In-process CPU sampling (`cpu` feature).
//!
//! Every thread of the program gets a timer on its own CPU-time clock that
//! interrupts it with a real-time signal (SIGRTMAX-2, so SIGPROF stays the program's)
//! after each period of CPU it uses (`HOTPATH_CPU_HZ`,
//! default 100 per CPU-second). The handler records the measured-function stack and
//! a copy of the native stack into a fixed ring; the hidden `hp-cpu` thread drains
//! it, unwinds, and aggregates. Threads that start later get their timer at the
//! next scan (every 100 ms); profiler threads (`hp-*`) are never sampled.
//!
//! - the per-thread stack of active measured sites is `record::stack`, pushed by frames
//!   through `record::hooks`.
//! - `ring`: the signal-safe queue; `sample`: what it carries, and the ring itself.
//! - `signal`, `sampler`: timers, handler and the draining thread (Linux).
//! - `unwind`, `profile`, `export`: stacks, aggregation, output files (pprof's
//!   messages are the base file `crate::pprof`, shared with the heap profile).
//! - `section`: the `functions-cpu` report section.

#[cfg(target_os = "linux")]
mod export;
#[cfg(target_os = "linux")]
mod profile;
#[cfg(target_os = "linux")]
mod ring;
#[cfg(target_os = "linux")]
mod sample;
#[cfg(target_os = "linux")]
mod sampler;
#[cfg(target_os = "linux")]
mod section;
#[cfg(target_os = "linux")]
mod signal;
#[cfg(target_os = "linux")]
mod unwind;

#[cfg(target_os = "linux")]
pub(crate) use sampler::{finish, start};
#[cfg(target_os = "linux")]
pub(crate) use section::section;

/// Elsewhere: one warning at start-up, no section.
#[cfg(not(target_os = "linux"))]
pub(crate) fn start(_config: &crate::options::Options) {
    crate::diag::warn("hotpath-cpu: CPU sampling is implemented on Linux only; functions-cpu is off");
}
