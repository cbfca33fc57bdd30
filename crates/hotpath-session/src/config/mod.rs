//! Typed configuration from one source: the `#[hotpath::main]` parameters, then the
//! `HOTPATH_*` environment overlay on top (`overlay`, one table of variables). A bad
//! environment value is one warning line and the value from the parameters (or the
//! default) is kept.

mod main_params;
mod overlay;
#[cfg(test)]
mod tests;

use std::ffi::OsString;
use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::str::FromStr;

use hotpath_engine::options::Options;

/// The parameters of `#[hotpath::main]`, built by the macro expansion.
#[derive(Clone, Debug)]
pub struct MainConfig {
    caller: &'static str,
    percentiles: Option<&'static [f64]>,
    format: Option<&'static str>,
    limit: Option<usize>,
    output_path: Option<&'static str>,
    cpu_output: Option<&'static str>,
    /// `report` and the per-section limits (stubs in `main_params.rs`).
    params: main_params::MainParams,
}

impl MainConfig {
    /// Configuration for a program whose main function is `caller`.
    pub const fn new(caller: &'static str) -> Self {
        Self {
            caller,
            percentiles: None,
            format: None,
            limit: None,
            output_path: None,
            cpu_output: None,
            params: main_params::MainParams::new(),
        }
    }

    /// Percentile columns, each in 0..=100.
    pub const fn percentiles(mut self, percentiles: &'static [f64]) -> Self {
        self.percentiles = Some(percentiles);
        self
    }

    /// `table`, `json`, `json-pretty` or `none`.
    pub const fn format(mut self, format: &'static str) -> Self {
        self.format = Some(format);
        self
    }

    /// Rows per section; 0 shows all.
    pub const fn limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Writes the report to this file instead of standard output.
    pub const fn output_path(mut self, path: &'static str) -> Self {
        self.output_path = Some(path);
        self
    }

    /// Directory for the CPU profile files (folded stacks, flamegraph, pprof).
    pub const fn cpu_output(mut self, dir: &'static str) -> Self {
        self.cpu_output = Some(dir);
        self
    }

    pub(crate) fn caller(&self) -> &'static str {
        self.caller
    }
}

/// How the final report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Table,
    Json,
    JsonPretty,
    None,
}

impl FromStr for Format {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "table" => Ok(Self::Table),
            "json" => Ok(Self::Json),
            "json-pretty" => Ok(Self::JsonPretty),
            "none" => Ok(Self::None),
            _ => Err(()),
        }
    }
}

impl Format {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Table => "table",
            Self::Json => "json",
            Self::JsonPretty => "json-pretty",
            Self::None => "none",
        }
    }
}

/// The resolved configuration of a profiling session.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    pub(crate) caller: String,
    pub(crate) format: Format,
    pub(crate) output_path: Option<PathBuf>,
    pub(crate) server: ServerSettings,
    /// What the instruments read: percentiles, limits, focus, sampler settings.
    pub(crate) options: Options,
}

impl Config {
    /// Parameters first, then the environment read through `env` (`std::env::var_os`,
    /// or a fake one in tests); returns the configuration and one warning per
    /// rejected environment value.
    pub(crate) fn resolve(main: &MainConfig, env: impl Fn(&str) -> Option<OsString>) -> (Self, Vec<String>) {
        let mut options = Options::default();
        if let Some(p) = main.percentiles {
            options.percentiles = p.to_vec();
        }
        if let Some(limit) = main.limit {
            options.limit = limit;
        }
        options.cpu_output = main.cpu_output.map(PathBuf::from);
        let mut config = Self {
            caller: main.caller.to_string(),
            format: main.format.and_then(|f| f.parse().ok()).unwrap_or(Format::Table),
            output_path: main.output_path.map(PathBuf::from),
            server: ServerSettings::default(),
            options,
        };
        let warnings = overlay::apply(&mut config, env);
        (config, warnings)
    }
}

/// Port of the live metrics server when `HOTPATH_METRICS_PORT` is not set.
pub const DEFAULT_METRICS_PORT: u16 = 6770;

/// Where and how the live metrics server listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerSettings {
    /// False with `HOTPATH_METRICS_SERVER_OFF`.
    pub enabled: bool,
    /// Address to bind (`HOTPATH_METRICS_HOST`, loopback unless a token is set).
    pub host: IpAddr,
    /// 0 asks the system for a free port, which is then printed on stderr.
    pub port: u16,
    /// Required as `Authorization: Bearer <token>` on every request when set.
    pub token: Option<String>,
    /// `HOTPATH_AUTH_TOKEN` is set but unusable (empty, or not UTF-8): the server
    /// fails closed and answers every request with 401.
    pub refuse_all: bool,
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: DEFAULT_METRICS_PORT,
            token: None,
            refuse_all: false,
        }
    }
}
