//! `hotpath::instant::Instant`, the clock type hotpath-rs exposes under this path, in
//! both modes.
//!
//! It is `std::time::Instant`: the profiler's own clock counts raw TSC ticks that only
//! become durations after calibration against the system clock, so handing it out as
//! an `Instant` would not be cheaper where it matters; std's monotonic clock is read
//! through the vDSO on Linux (no syscall) and has the full `Instant` API.
//!
//! ```
//! let start = hotpath::instant::Instant::now();
//! let elapsed: std::time::Duration = start.elapsed();
//! assert!(elapsed >= std::time::Duration::ZERO);
//! ```

pub use std::time::Instant;
