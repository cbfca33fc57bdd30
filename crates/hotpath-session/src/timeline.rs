//! The session's part of the flight recorder: the trace written at the end
//! (`HOTPATH_TIMELINE_OUTPUT`), waiting for triggered traces still being written, and
//! what the report says of it all (`meta.timeline`).

use std::time::Duration;

use hotpath_engine::export::write_listed;
use hotpath_engine::options::Options;
use hotpath_engine::timeline;
use hotpath_model::TimelineMeta;

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
    if let Err(e) = write_listed(path, window, "exit") {
        hotpath_engine::diag::warn(&format!("could not write the timeline to {}: {e}", path.display()));
    }
}

/// The report's `meta.timeline`: present once the recorder is on or wrote a file.
pub(crate) fn meta() -> Option<TimelineMeta> {
    let usage = timeline::usage();
    let files = timeline::files();
    if !usage.on && files.listed.is_empty() {
        return None;
    }
    let mut meta = TimelineMeta::default();
    meta.events_per_thread = usage.per_thread;
    meta.rings = usage.rings;
    meta.bytes = usage.bytes as u64;
    meta.events_written = usage.written;
    meta.files = files.listed;
    meta.files_unlisted = files.unlisted;
    meta.suppressed = files.suppressed;
    Some(meta)
}
