//! Trace files of the timeline (`crate::timeline`): Perfetto protobuf and Chrome
//! trace-event JSON. A reader like `collect.rs`: it names events from every
//! instrument's registry, so it sits above the instruments; nothing records through it.

mod chrome;
mod intern;
mod layout;
mod names;
mod perfetto;
mod perfetto_proto;
#[cfg(test)]
mod tests;
mod wire;

use std::path::Path;

use crate::timeline::Snapshot;

/// A trace file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    /// Perfetto's protobuf `Trace` (ui.perfetto.dev, trace processor).
    Perfetto,
    /// Chrome trace-event JSON (chrome://tracing, speedscope, Perfetto UI).
    ChromeJson,
}

impl TraceFormat {
    /// By a file's name: `.json` is Chrome JSON, any other name Perfetto protobuf.
    pub fn for_path(path: &Path) -> TraceFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("json") => TraceFormat::ChromeJson,
            _ => TraceFormat::Perfetto,
        }
    }

    /// `perfetto` or `json` (as the live server's `format=` says).
    pub fn parse(text: &str) -> Option<TraceFormat> {
        match text {
            "perfetto" | "pftrace" | "proto" => Some(TraceFormat::Perfetto),
            "json" | "chrome" => Some(TraceFormat::ChromeJson),
            _ => None,
        }
    }

    /// The HTTP content type of the format.
    pub fn content_type(self) -> &'static str {
        match self {
            TraceFormat::Perfetto => "application/octet-stream",
            TraceFormat::ChromeJson => "application/json",
        }
    }
}

/// What a written trace held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceStats {
    /// Events in the trace.
    pub events: usize,
    /// Threads with events.
    pub threads: usize,
    /// Events left out because their thread overwrote them while they were read.
    pub torn: u64,
    /// Slices that did not nest in their thread's stack (async waits, reads, requests
    /// spanning polls of other tasks), shown on lane tracks of the thread instead.
    pub laned: u64,
    /// Slices left out because all 32 lanes of their kind on their thread were busy.
    pub crowded: u64,
}

/// The timeline of the last `window_ns` (all the rings hold for `None`) in `format`.
pub fn timeline(window_ns: Option<u64>, format: TraceFormat) -> (Vec<u8>, TraceStats) {
    let mut bytes = Vec::new();
    let stats = write_to(window_ns, format, &mut bytes).unwrap_or_default();
    (bytes, stats)
}

/// Writes the timeline of the last `window_ns` in `format` to `sink`, as it is encoded:
/// the rings are copied first (the program's threads go on meanwhile), then laid out
/// and encoded in chunks.
pub fn write_to(
    window_ns: Option<u64>,
    format: TraceFormat,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<TraceStats> {
    // `None`: the configured window (HOTPATH_TIMELINE_WINDOW), all the rings hold without one;
    // every way to get a trace (exit, triggers, live, MCP, code) comes through here.
    let snapshot = Snapshot::take(window_ns.or_else(crate::timeline::trigger::window_ns));
    let names = names::Names::read();
    let layout = layout::Layout::new(&snapshot, &names);
    let pid = std::process::id();
    let process = process_name();
    match format {
        TraceFormat::Perfetto => perfetto::encode(&layout, &snapshot, pid, &process, sink)?,
        TraceFormat::ChromeJson => chrome::encode(&layout, &snapshot, pid, &process, sink)?,
    }
    Ok(TraceStats {
        events: snapshot.events() - layout.crowded as usize,
        threads: snapshot.threads.len(),
        torn: snapshot.torn,
        laned: layout.laned,
        crowded: layout.crowded,
    })
}

/// Writes the timeline of the last `window_ns` to `path`, in the format its name says.
/// The file is readable by its owner only (a trace names the program's functions,
/// routes and queries, like a report): created with mode 0600 on Unix, and an
/// existing file keeps its own mode.
pub fn write_timeline(path: &Path, window_ns: Option<u64>) -> std::io::Result<TraceStats> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    write_file(path, window_ns, &options)
}

fn write_file(path: &Path, window_ns: Option<u64>, options: &std::fs::OpenOptions) -> std::io::Result<TraceStats> {
    #[cfg(unix)]
    let options = &{
        let mut options = options.clone();
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options
    };
    let mut file = std::io::BufWriter::with_capacity(1 << 20, options.open(path)?);
    let stats = write_to(window_ns, TraceFormat::for_path(path), &mut file)?;
    std::io::Write::flush(&mut file)?;
    Ok(stats)
}

/// [`write_timeline`], and the file (or the error) listed in the report's
/// `meta.timeline.files` with `reason` (`exit`, `requested`).
pub fn write_listed(path: &Path, window_ns: Option<u64>, reason: &str) -> std::io::Result<TraceStats> {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    let mut file = hotpath_model::TraceFile::new(path.display().to_string(), reason, String::new(), now);
    let written = write_timeline(path, window_ns);
    match &written {
        Ok(stats) => (file.events, file.torn) = (stats.events as u64, stats.torn),
        Err(e) => file.error = Some(e.to_string()),
    }
    crate::timeline::record_file(file);
    written
}

/// The triggers' writer (`timeline::trigger::WriteTrace`): events and torn events. The
/// file must not exist (its directory may be shared, like the temporary one): a name
/// taken by someone else, or a link planted there, is an error, not a file overwritten.
pub(crate) fn write_triggered(path: &Path, window_ns: Option<u64>) -> std::io::Result<(u64, u64)> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    write_file(path, window_ns, &options).map(|s| (s.events as u64, s.torn))
}

/// The name of the entry a metric id belongs to (for a triggered trace's subject).
pub(crate) fn metric_name(id: u32) -> String {
    names::Names::read().of(crate::timeline::Kind::Send, id, 0)
}

fn process_name() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "process".into())
}
