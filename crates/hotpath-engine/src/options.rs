//! What the instruments need to know of a session's configuration: how reports are
//! cut (percentiles, row limit, focus) and how the samplers run. The session resolves
//! it from parameters and the environment; the instruments only read it.

use std::path::PathBuf;
use std::str::FromStr;

pub use crate::timeline::TimelineTrigger;

/// Percentile columns when none are configured.
pub const DEFAULT_PERCENTILES: [f64; 3] = [50.0, 95.0, 99.0];
/// Rows per section when no limit is configured.
pub const DEFAULT_LIMIT: usize = 15;
/// Threads view sampling interval and row cap, as the specification sets them.
pub const DEFAULT_THREADS_INTERVAL_MS: u64 = 250;
/// Rows of the threads view.
pub const DEFAULT_THREADS_LIMIT: usize = 5;
/// CPU samples per CPU-second of each thread.
pub const DEFAULT_CPU_HZ: u64 = 100;
/// Mean bytes between two sampled allocations (512 KiB, as tcmalloc's and Go's).
pub const DEFAULT_HEAP_SAMPLE_BYTES: u64 = 512 * 1024;
/// Default time between two snapshots of the live heap's growth history: the window
/// of 8 snapshots then spans 70 s, long enough for a service's steady state to show.
pub const DEFAULT_HEAP_SNAPSHOT_MS: u64 = 10_000;
/// Tokio runtime sampling interval (`HOTPATH_TOKIO_RUNTIME_INTERVAL_MS`).
pub const DEFAULT_TOKIO_RUNTIME_INTERVAL_MS: u64 = 1000;

/// Rows per HTTP/SQL table unless `HOTPATH_ENTRIES_LIMIT` says otherwise (the same
/// variable bounds the debug trackers' keys).
pub const DEFAULT_ENTRIES_LIMIT: usize = crate::logs::DEFAULT_ENTRIES_LIMIT;
/// The largest `HOTPATH_ENTRIES_LIMIT` honoured (three tables of it fit the cell ids).
pub const MAX_ENTRIES_LIMIT: usize = 5000;

/// Which rows to keep: a substring, or a regular expression written `/like this/`.
#[derive(Clone, Debug)]
pub enum Focus {
    /// Rows whose name contains this text.
    Text(String),
    /// Rows whose name matches this expression.
    Pattern(regex_lite::Regex),
}

impl FromStr for Focus {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.strip_prefix('/').and_then(|r| r.strip_suffix('/')) {
            Some(pattern) if s.len() >= 2 => {
                regex_lite::Regex::new(pattern).map(Self::Pattern).map_err(|e| format!("is not a valid regex ({e})"))
            }
            _ if s.is_empty() => Err("is empty".into()),
            _ => Ok(Self::Text(s.to_string())),
        }
    }
}

impl Focus {
    /// True when `name` is kept.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            Self::Text(t) => name.contains(t.as_str()),
            Self::Pattern(r) => r.is_match(name),
        }
    }

    /// The filter as the user wrote it.
    pub fn as_string(&self) -> String {
        match self {
            Self::Text(t) => t.clone(),
            Self::Pattern(r) => format!("/{}/", r.as_str()),
        }
    }
}

/// The instruments' part of a session's configuration.
#[derive(Clone, Debug)]
pub struct Options {
    /// Percentile columns, each in 0..=100.
    pub percentiles: Vec<f64>,
    /// Rows per section; 0 keeps all.
    pub limit: usize,
    /// Row filter by name.
    pub focus: Option<Focus>,
    /// Use the TSC where it is invariant (`HOTPATH_CLOCK`).
    pub allow_tsc: bool,
    /// Per-call allocations include nested measured calls (`HOTPATH_ALLOC_MODE=inclusive`).
    pub alloc_inclusive: bool,
    /// Milliseconds between two threads-view samples.
    pub threads_interval_ms: u64,
    /// Rows of the threads view.
    pub threads_limit: usize,
    /// CPU samples per CPU-second (`HOTPATH_CPU_HZ`).
    pub cpu_hz: u64,
    /// Where CPU profile files go (`HOTPATH_CPU_OUTPUT` or `cpu_output = "dir"`).
    pub cpu_output: Option<PathBuf>,
    /// How often `tokio_runtime!()` runtimes are sampled.
    pub tokio_runtime_interval_ms: u64,
    /// Mean bytes between two sampled allocations (`HOTPATH_HEAP_SAMPLE_BYTES`).
    pub heap_sample_bytes: u64,
    /// Function or crate prefixes whose live allocations the `heap` section leaves
    /// out (`HOTPATH_HEAP_IGNORE`, comma-separated).
    pub heap_ignore: Vec<String>,
    /// Where the live heap's pprof and flamegraph go at exit (`HOTPATH_HEAP_OUTPUT`).
    pub heap_output: Option<PathBuf>,
    /// Time between two snapshots of the live heap for the growth history
    /// (`HOTPATH_HEAP_SNAPSHOT_MS`).
    pub heap_snapshot_ms: u64,
    /// Per instrument (indexed by `sampling::Sampled`), the fraction of calls or
    /// operations whose duration is measured; counts are always exact.
    pub time_sampling: [f64; 6],
    /// The overhead budget, a fraction of the process's CPU time that timing function
    /// calls may cost (`HOTPATH_OVERHEAD_BUDGET`); `None`: every call timed.
    pub overhead_budget: Option<f64>,
    /// Tests only (`HOTPATH_OVERHEAD_BUDGET_SHADOW`): calls the budget leaves untimed
    /// are timed anyway into a shadow total, the truth estimates are checked against.
    pub budget_shadow: bool,
    /// The base of the sampling draws' per-thread seeds (`HOTPATH_SAMPLING_SEED`): the
    /// same seed times the same calls where the rates are the same (0 by default).
    pub sampling_seed: u64,
    /// Duration sections carry fixed buckets (live snapshots, for Prometheus histograms).
    pub buckets: bool,
    /// What the log store (`dbg!`, `val!`, `gauge!`, `log = true`) keeps and how many
    /// keys a run-time-keyed map holds (`HOTPATH_LOGS_LIMIT`, `HOTPATH_MAX_LOG_LEN`,
    /// `HOTPATH_ENTRIES_LIMIT`).
    pub logs: crate::logs::LogLimits,
    /// Show the profiler's own `hp-*` threads (`HOTPATH_SHOW_INTERNAL_THREADS`).
    pub show_internal_threads: bool,
    /// Attribute work done while serving an HTTP request to its route (`HOTPATH_ROUTE_SCOPE`).
    pub route_scope: bool,
    /// Keep each SQL row's first raw statement, literals included (`HOTPATH_SQL_RAW_LOGS`).
    pub sql_raw_logs: bool,
    /// Callgrind's `--callgrind-out-file` template (`HOTPATH_CALLGRIND_OUT_FILE`); `None`
    /// is Callgrind's default, `callgrind.out.%p`.
    pub callgrind_out_file: Option<String>,
    /// A native run's JSON report that a Callgrind run adds its instruction counts to
    /// (`HOTPATH_MERGE_REPORT`).
    pub merge_report: Option<PathBuf>,
    /// The flight recorder (`HOTPATH_TIMELINE*`).
    pub timeline: TimelineOptions,
}

/// The flight recorder's settings.
#[derive(Clone, Debug)]
pub struct TimelineOptions {
    /// Record events into the per-thread rings (`HOTPATH_TIMELINE=on`).
    pub on: bool,
    /// Events each thread's ring holds (`HOTPATH_TIMELINE_SIZE`).
    pub events: usize,
    /// How far back a trace reaches unless asked otherwise (`HOTPATH_TIMELINE_WINDOW`);
    /// `None`: all the rings hold.
    pub window_ms: Option<u64>,
    /// Where the trace of the run goes at exit (`HOTPATH_TIMELINE_OUTPUT`): `.json` is
    /// Chrome JSON, any other name Perfetto protobuf.
    pub output: Option<PathBuf>,
    /// Functions whose call over a threshold writes the window around it to a file
    /// (`HOTPATH_TIMELINE_TRIGGER="name>50ms"`; `#[measure(timeline_over = "50ms")]`
    /// sets one in code).
    pub triggers: Vec<TimelineTrigger>,
    /// Where triggered traces go (`HOTPATH_TIMELINE_DIR`).
    pub trigger_dir: PathBuf,
    /// At most this many triggered files per run (`HOTPATH_TIMELINE_MAX_FILES`).
    pub max_files: usize,
    /// At least this long between two triggered files (`HOTPATH_TIMELINE_MIN_INTERVAL_MS`).
    pub min_interval_ms: u64,
}

impl Default for TimelineOptions {
    fn default() -> Self {
        Self {
            on: false,
            events: crate::timeline::DEFAULT_EVENTS,
            window_ms: None,
            output: None,
            triggers: Vec::new(),
            trigger_dir: PathBuf::from("hotpath-timeline"),
            max_files: 10,
            min_interval_ms: 10_000,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Self {
            percentiles: DEFAULT_PERCENTILES.to_vec(),
            limit: DEFAULT_LIMIT,
            focus: None,
            allow_tsc: true,
            alloc_inclusive: false,
            threads_interval_ms: DEFAULT_THREADS_INTERVAL_MS,
            threads_limit: DEFAULT_THREADS_LIMIT,
            cpu_hz: DEFAULT_CPU_HZ,
            cpu_output: None,
            tokio_runtime_interval_ms: DEFAULT_TOKIO_RUNTIME_INTERVAL_MS,
            heap_sample_bytes: DEFAULT_HEAP_SAMPLE_BYTES,
            heap_ignore: Vec::new(),
            heap_output: None,
            heap_snapshot_ms: DEFAULT_HEAP_SNAPSHOT_MS,
            time_sampling: [1.0; 6],
            overhead_budget: None,
            budget_shadow: false,
            sampling_seed: 0,
            buckets: false,
            logs: crate::logs::LogLimits::default(),
            show_internal_threads: false,
            route_scope: true,
            sql_raw_logs: false,
            callgrind_out_file: None,
            merge_report: None,
            timeline: TimelineOptions::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn focus_text_or_regex() {
        let text: Focus = "parse".parse().unwrap();
        assert!(text.matches("app::parse_line") && !text.matches("app::main"));
        let re: Focus = "/^app::(a|b)$/".parse().unwrap();
        assert!(re.matches("app::a") && !re.matches("app::ab"));
        assert_eq!(re.as_string(), "/^app::(a|b)$/");
    }
}
