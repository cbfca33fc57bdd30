//! The flight recorder's timeline from code: [`write_timeline`] writes what every thread
//! did lately (measured calls, polls, messages, lock waits and holds, I/O, requests and
//! queries, gauges) to a Perfetto or Chrome trace file, for example when a request turns
//! out slow.

use std::path::Path;
use std::time::Duration;

/// What a written timeline held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimelineStats {
    /// Events in the file (slices, instants and counter values).
    pub events: usize,
    /// Threads with events.
    pub threads: usize,
    /// Events left out because their thread overwrote them while they were copied.
    pub torn: u64,
}

/// Writes the timeline of the last `last` (all the rings hold for `None`) to `path`:
/// `.json` gives Chrome trace-event JSON (chrome://tracing, speedscope), any other name
/// Perfetto protobuf (ui.perfetto.dev). The file is listed in the report's
/// `meta.timeline.files`. The program's threads go on recording while the rings are
/// copied; nothing waits for them.
///
/// ```no_run
/// # fn handle() -> std::time::Duration { std::time::Duration::ZERO }
/// if handle() > std::time::Duration::from_millis(800) {
///     let _ = hotpath::write_timeline("slow-request.pftrace", Some(std::time::Duration::from_secs(5)));
/// }
/// ```
///
/// An error when the recorder is off (`HOTPATH_TIMELINE=on`, `#[hotpath::main(timeline =
/// true)]` or the builder's `timeline(true)` turn it on) or the file cannot be written.
/// Without the `hotpath` feature it writes nothing and returns empty stats. Cost: off,
/// none; on, copying the rings and encoding them on the calling thread (a full
/// 32,768-event ring per thread: figures in `docs/PERFORMANCE.md`).
#[allow(unused_variables)]
pub fn write_timeline(path: impl AsRef<Path>, last: Option<Duration>) -> std::io::Result<TimelineStats> {
    #[cfg(feature = "hotpath")]
    {
        use hotpath_engine::timeline;
        if !timeline::usage().on {
            return Err(std::io::Error::other(
                "the timeline is off: set HOTPATH_TIMELINE=on, #[hotpath::main(timeline = true)] or .timeline(true)",
            ));
        }
        let path = path.as_ref();
        let window = last.map(|d| d.as_nanos().min(u128::from(u64::MAX)) as u64);
        let stats = hotpath_engine::export::write_listed(path, window, "requested")?;
        Ok(TimelineStats { events: stats.events, threads: stats.threads, torn: stats.torn })
    }
    #[cfg(not(feature = "hotpath"))]
    Ok(TimelineStats::default())
}
