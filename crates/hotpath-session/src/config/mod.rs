//! Typed configuration from one source: the `#[hotpath::main]` parameters, then the
//! `HOTPATH_*` environment overlay on top (`overlay`, one table of variables). A bad
//! environment value is one warning line and the value from the parameters (or the
//! default) is kept.

mod labels;
mod limits;
#[cfg(test)]
mod list_tests;
mod main_params;
mod otlp;
mod otlp_vars;
mod overlay;
mod report_vars;
#[cfg(test)]
mod seed_tests;
mod seed_vars;
mod server;
mod server_vars;
mod spec;
#[cfg(test)]
mod tests;
mod timeline_vars;
mod vars;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use hotpath_engine::options::Options;

pub(crate) use limits::{group as limit_group, groups as limit_groups, Limits};
pub use otlp::{OtlpEndpoint, OtlpSettings, DEFAULT_OTLP_INTERVAL};
pub use server::{ServerSettings, Surface, DEFAULT_METRICS_PORT};
pub use spec::SectionSpec;

/// A closure run once before the final report.
pub(crate) type BeforeShutdown = Arc<Mutex<Option<Box<dyn FnOnce() + Send>>>>;

/// The parameters of a session: what `#[hotpath::main]` and `HotpathGuardBuilder`
/// set, before the environment overlay. Setters are in `main_params`.
#[derive(Clone, Default)]
pub struct MainConfig {
    caller: String,
    percentiles: Option<Vec<f64>>,
    format: Option<Format>,
    limits: Limits,
    output_path: Option<PathBuf>,
    cpu_output: Option<PathBuf>,
    sections: Option<SectionSpec>,
    /// Names in a `report` spec that are no section, warned about at start.
    unknown_sections: Vec<String>,
    user_metadata: BTreeMap<String, String>,
    /// Builder rates: the global one, then per instrument (`Sampled as usize`).
    sampling: (Option<f64>, [Option<f64>; 6]),
    /// The overhead budget (`overhead_budget = "1%"`; `HOTPATH_OVERHEAD_BUDGET` beats it).
    overhead_budget: Option<f64>,
    route_scope: Option<bool>,
    before_shutdown: Option<BeforeShutdown>,
    /// The flight recorder on or off (`timeline = true`), and where its trace goes at
    /// exit (`timeline_output = "trace.pftrace"`, which turns it on).
    timeline: Option<bool>,
    timeline_output: Option<PathBuf>,
    /// Process labels for `/metrics` (`HOTPATH_METRICS_LABELS` beats a name given here).
    metrics_labels: Vec<(String, String)>,
    /// OTLP export (`HOTPATH_OTLP_ENDPOINT` and `HOTPATH_OTLP_INTERVAL` beat these).
    otlp_endpoint: Option<String>,
    otlp_interval: Option<std::time::Duration>,
}

impl std::fmt::Debug for MainConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MainConfig").field("caller", &self.caller).finish_non_exhaustive()
    }
}

impl MainConfig {
    /// Configuration for a program whose main function (or guard) is `caller`.
    pub fn new(caller: &str) -> Self {
        Self { caller: caller.to_string(), ..Self::default() }
    }

    /// Percentile columns, each in 0..=100.
    pub fn percentiles(mut self, percentiles: &[f64]) -> Self {
        self.percentiles = Some(percentiles.to_vec());
        self
    }

    /// `table`, `json`, `json-pretty` or `none` (the macro checks the name at compile time).
    pub fn format(mut self, format: &str) -> Self {
        self.format = format.parse().ok();
        self
    }

    /// The output format.
    pub fn output_format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }

    /// Rows of every section; 0 shows all. Per-section limits set later override it.
    pub fn limit(mut self, limit: usize) -> Self {
        self.limits.set_all(limit);
        self
    }

    /// Writes the report to this file instead of standard output; a relative path is
    /// taken relative to the current directory now.
    pub fn output_path(mut self, path: impl AsRef<Path>) -> Self {
        let path = path.as_ref();
        self.output_path = Some(std::env::current_dir().map_or_else(|_| path.to_path_buf(), |dir| dir.join(path)));
        self
    }

    /// Directory for the CPU profile files (folded stacks, flamegraph, pprof).
    pub fn cpu_output(mut self, dir: &str) -> Self {
        self.cpu_output = Some(PathBuf::from(dir));
        self
    }

    pub(crate) fn caller(&self) -> &str {
        &self.caller
    }

    /// The closure to run before the final report, taken out (it runs once).
    pub(crate) fn shutdown_hook(&self) -> Option<BeforeShutdown> {
        self.before_shutdown.clone()
    }
}

/// How the final report is written.
// Exhaustive, as in hotpath-rs 0.30.3: a user's `match` on it must compile here too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// Human-readable tables (the default).
    #[default]
    Table,
    /// One line of JSON.
    Json,
    /// Indented JSON.
    JsonPretty,
    /// Nothing is printed (the live server still runs).
    None,
}

impl FromStr for Format {
    type Err = String;
    /// `table`, `json`, `json-pretty` (or `jsonpretty`) or `none`, in any case.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "table" => Ok(Self::Table),
            "json" => Ok(Self::Json),
            "json-pretty" | "jsonpretty" => Ok(Self::JsonPretty),
            "none" => Ok(Self::None),
            _ => Err(format!("unknown format {s:?}; expected table, json, json-pretty or none")),
        }
    }
}

impl Format {
    /// The name `HOTPATH_OUTPUT_FORMAT` takes.
    pub fn name(self) -> &'static str {
        match self {
            Self::Table => "table",
            Self::Json => "json",
            Self::JsonPretty => "json-pretty",
            Self::None => "none",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The resolved configuration of a profiling session.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    pub(crate) caller: String,
    pub(crate) format: Format,
    pub(crate) output_path: Option<PathBuf>,
    pub(crate) server: ServerSettings,
    /// What the instruments read: percentiles, focus, sampler settings.
    pub(crate) options: Options,
    /// Rows per section.
    pub(crate) limits: Limits,
    /// Which sections the report shows.
    pub(crate) sections: SectionSpec,
    pub(crate) user_metadata: BTreeMap<String, String>,
    /// `HOTPATH_REPORT_LABEL`.
    pub(crate) label: Option<String>,
    /// `HOTPATH_EXCLUDE_WRAPPER`: no row for the session's own span.
    pub(crate) exclude_wrapper: bool,
    /// `HOTPATH_FUNCTIONS_NAME_DEPTH`: path segments of function names in tables.
    pub(crate) name_depth: usize,
    /// `HOTPATH_NAME_WIDTH`: characters of a row's name in tables, cut in the middle
    /// (0 = whole).
    pub(crate) name_width: usize,
    /// `HOTPATH_SHUTDOWN_MS`: report and exit after this long.
    pub(crate) shutdown_ms: Option<u64>,
    /// `HOTPATH_COMPACT_TABLES`: no rule between table rows.
    pub(crate) compact_tables: bool,
    /// Environment rates: the global one, then per instrument.
    pub(crate) env_sampling: (Option<f64>, [Option<f64>; 6]),
    /// The OTLP export's pieces, assembled into `server.otlp` at the end of `resolve`.
    pub(crate) otlp: otlp::OtlpParts,
}

impl Config {
    /// Parameters first, then the environment read through `env` (`std::env::var_os`,
    /// or a fake one in tests); returns the configuration and one warning per
    /// rejected environment value.
    pub(crate) fn resolve(main: &MainConfig, env: impl Fn(&str) -> Option<OsString>) -> (Self, Vec<String>) {
        let mut options = Options::default();
        if let Some(p) = &main.percentiles {
            options.percentiles = p.clone();
        }
        options.cpu_output = main.cpu_output.clone();
        options.overhead_budget = main.overhead_budget;
        if let Some(scope) = main.route_scope {
            options.route_scope = scope;
        }
        options.timeline.output = main.timeline_output.clone();
        options.timeline.on = main.timeline.unwrap_or(false) || main.timeline_output.is_some();
        let mut config = Self {
            caller: main.caller.clone(),
            format: main.format.unwrap_or_default(),
            output_path: main.output_path.clone(),
            server: ServerSettings::default(),
            options,
            limits: main.limits.clone(),
            sections: main.sections.clone().unwrap_or_default(),
            user_metadata: main.user_metadata.clone(),
            label: None,
            exclude_wrapper: false,
            name_depth: 2,
            name_width: 0,
            shutdown_ms: None,
            compact_tables: false,
            env_sampling: (None, [None; 6]),
            otlp: otlp::OtlpParts { interval: main.otlp_interval, ..Default::default() },
        };
        let mut warnings: Vec<String> =
            main.unknown_sections.iter().map(|n| format!("unknown report section {n:?}; ignored")).collect();
        for (name, value) in &main.metrics_labels {
            match labels::check(name, value) {
                Ok(()) if config.server.labels.iter().any(|(n, _)| n == name) => {
                    warnings.push(format!("metrics label {name:?} given twice; the first is kept"));
                }
                Ok(()) => config.server.labels.push((name.clone(), value.clone())),
                Err(why) => warnings.push(format!("metrics label {name}={value:?}: {why}; ignored")),
            }
        }
        if let Some(url) = &main.otlp_endpoint {
            match otlp::OtlpEndpoint::parse(url) {
                Ok(endpoint) => config.otlp.endpoint = Some(endpoint),
                Err(why) => warnings.push(format!("OTLP endpoint {url:?} {why}; no OTLP export")),
            }
        }
        warnings.extend(overlay::apply(&mut config, env));
        config.server.otlp = config.otlp.settings(&config.server.labels, &mut warnings);
        // Per-instrument environment, then the global environment rate, then the
        // builder's per-instrument, then the builder's global one.
        for kind in 0..6 {
            let rate = config.env_sampling.1[kind]
                .or(config.env_sampling.0)
                .or(main.sampling.1[kind])
                .or(main.sampling.0)
                .unwrap_or(1.0);
            config.options.time_sampling[kind] = rate;
        }
        (config, warnings)
    }
}
