//! The session's part of the flight recorder: the trace written at the end
//! (`HOTPATH_TIMELINE_OUTPUT`), waiting for triggered traces still being written, and
//! what the report says of it all (`meta.timeline`).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hotpath_engine::export::write_timeline;
use hotpath_engine::options::Options;
use hotpath_engine::timeline;
use hotpath_model::{TimelineMeta, TraceFile};

/// How long the end of a session waits for triggered traces being written.
const FLUSH: Duration = Duration::from_secs(5);

/// At the session's end: lets queued triggered traces finish, then writes the run's
/// trace where `HOTPATH_TIMELINE_OUTPUT` says (a failure is in the file's record).
pub(crate) fn at_end(options: &Options) {
    if !timeline::usage().on {
        return;
    }
    timeline::flush(FLUSH);
    let Some(path) = &options.timeline.output else { return };
    let window = options.timeline.window_ms.map(|ms| ms.saturating_mul(1_000_000));
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    let mut file = TraceFile::new(path.display().to_string(), "exit", String::new(), now);
    match write_timeline(path, window) {
        Ok(stats) => (file.events, file.torn) = (stats.events as u64, stats.torn),
        Err(e) => {
            hotpath_engine::diag::warn(&format!("could not write the timeline to {}: {e}", path.display()));
            file.error = Some(e.to_string());
        }
    }
    timeline::record_file(file);
}

/// The report's `meta.timeline`: present once the recorder is on or wrote a file.
pub(crate) fn meta() -> Option<TimelineMeta> {
    let usage = timeline::usage();
    let (files, suppressed) = timeline::files();
    if !usage.on && files.is_empty() {
        return None;
    }
    let mut meta = TimelineMeta::default();
    meta.events_per_thread = usage.per_thread;
    meta.rings = usage.rings;
    meta.bytes = usage.bytes as u64;
    meta.events_written = usage.written;
    meta.files = files;
    meta.suppressed = suppressed;
    Some(meta)
}
