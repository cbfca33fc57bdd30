//! Typed configuration from one source: the `#[hotpath::main]` parameters, then the
//! `HOTPATH_*` environment overlay on top. A bad environment value is one warning
//! line and the value from the parameters (or the default) is kept.

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::str::FromStr;

use hotpath_engine::options::{
    Options, DEFAULT_CPU_HZ, DEFAULT_THREADS_INTERVAL_MS, DEFAULT_THREADS_LIMIT, DEFAULT_TOKIO_RUNTIME_INTERVAL_MS,
};

/// The parameters of `#[hotpath::main]`, built by the macro expansion.
#[derive(Clone, Debug)]
pub struct MainConfig {
    caller: &'static str,
    percentiles: Option<&'static [f64]>,
    format: Option<&'static str>,
    limit: Option<usize>,
    output_path: Option<&'static str>,
    cpu_output: Option<&'static str>,
}

impl MainConfig {
    /// Configuration for a program whose main function is `caller`.
    pub const fn new(caller: &'static str) -> Self {
        Self { caller, percentiles: None, format: None, limit: None, output_path: None, cpu_output: None }
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
    fn name(self) -> &'static str {
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
    /// Parameters first, then the environment read through `env`; returns the
    /// configuration and one warning per rejected environment value.
    pub(crate) fn resolve(main: &MainConfig, env: impl Fn(&str) -> Option<String>) -> (Self, Vec<String>) {
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
        let mut warnings = Vec::new();
        let mut warn = |name: &str, value: &str, problem: &str, kept: String| {
            warnings.push(format!("{name}={value:?} {problem}; using {kept}"));
        };
        if let Some(v) = env("HOTPATH_OUTPUT_FORMAT") {
            match v.parse() {
                Ok(f) => config.format = f,
                Err(()) => warn(
                    "HOTPATH_OUTPUT_FORMAT",
                    &v,
                    "is not one of table, json, json-pretty, none",
                    config.format.name().into(),
                ),
            }
        }
        if let Some(v) = env("HOTPATH_OUTPUT_PATH") {
            if v.trim().is_empty() {
                warn("HOTPATH_OUTPUT_PATH", &v, "is empty", "standard output".into());
            } else {
                config.output_path = Some(PathBuf::from(v));
            }
        }
        if let Some(v) = env("HOTPATH_LIMIT") {
            match v.trim().parse() {
                Ok(n) => config.options.limit = n,
                Err(_) => {
                    warn("HOTPATH_LIMIT", &v, "is not a row count (0 shows all)", config.options.limit.to_string())
                }
            }
        }
        if let Some(v) = env("HOTPATH_PERCENTILES") {
            match parse_percentiles(&v) {
                Some(p) => config.options.percentiles = p,
                None => warn(
                    "HOTPATH_PERCENTILES",
                    &v,
                    "is not a comma-separated list of numbers in 0..=100",
                    format!("{:?}", config.options.percentiles),
                ),
            }
        }
        if let Some(v) = env("HOTPATH_FOCUS") {
            match v.parse() {
                Ok(focus) => config.options.focus = Some(focus),
                Err(problem) => warn("HOTPATH_FOCUS", &v, &problem, "no focus filter".into()),
            }
        }
        if let Some(v) = env("HOTPATH_CLOCK") {
            match v.as_str() {
                "tsc" => config.options.allow_tsc = true,
                "monotonic" => config.options.allow_tsc = false,
                _ => warn("HOTPATH_CLOCK", &v, "is not tsc or monotonic", "tsc where invariant".into()),
            }
        }
        if let Some(v) = env("HOTPATH_ALLOC_MODE") {
            match v.as_str() {
                "exclusive" => config.options.alloc_inclusive = false,
                "inclusive" => config.options.alloc_inclusive = true,
                _ => warn("HOTPATH_ALLOC_MODE", &v, "is not exclusive or inclusive", "exclusive".into()),
            }
        }
        if let Some(v) = env("HOTPATH_THREADS_INTERVAL_MS") {
            match v.trim().parse::<u64>() {
                Ok(ms @ 1..=60_000) => config.options.threads_interval_ms = ms,
                _ => warn(
                    "HOTPATH_THREADS_INTERVAL_MS",
                    &v,
                    "is not a number of milliseconds in 1..=60000",
                    DEFAULT_THREADS_INTERVAL_MS.to_string(),
                ),
            }
        }
        if let Some(v) = env("HOTPATH_THREADS_LIMIT") {
            match v.trim().parse::<usize>() {
                Ok(n @ 1..=10_000) => config.options.threads_limit = n,
                _ => warn(
                    "HOTPATH_THREADS_LIMIT",
                    &v,
                    "is not a row count in 1..=10000",
                    DEFAULT_THREADS_LIMIT.to_string(),
                ),
            }
        }
        if let Some(v) = env("HOTPATH_CPU_HZ") {
            match v.trim().parse::<u64>() {
                Ok(hz @ 1..=10_000) => config.options.cpu_hz = hz,
                _ => warn("HOTPATH_CPU_HZ", &v, "is not a rate in 1..=10000", DEFAULT_CPU_HZ.to_string()),
            }
        }
        if let Some(v) = env("HOTPATH_CPU_OUTPUT") {
            if v.trim().is_empty() {
                warn("HOTPATH_CPU_OUTPUT", &v, "is empty", "no profile files".into());
            } else {
                config.options.cpu_output = Some(PathBuf::from(v));
            }
        }
        if let Some(v) = env("HOTPATH_TOKIO_RUNTIME_INTERVAL_MS") {
            match v.trim().parse::<u64>() {
                Ok(ms @ 1..=60_000) => config.options.tokio_runtime_interval_ms = ms,
                _ => warn(
                    "HOTPATH_TOKIO_RUNTIME_INTERVAL_MS",
                    &v,
                    "is not a number of milliseconds in 1..=60000",
                    DEFAULT_TOKIO_RUNTIME_INTERVAL_MS.to_string(),
                ),
            }
        }
        if let Some(v) = env("HOTPATH_TIME_SAMPLING_RATE") {
            match v.trim().parse::<f64>() {
                Ok(rate) if (0.0..=1.0).contains(&rate) => config.options.time_sampling_rate = rate,
                _ => warn(
                    "HOTPATH_TIME_SAMPLING_RATE",
                    &v,
                    "is not a number in 0..=1 (0 counts without timing)",
                    config.options.time_sampling_rate.to_string(),
                ),
            }
        }
        config.options.logs = config.options.logs.overlay(&env, &mut warnings);
        config.server = ServerSettings::resolve(&env, &mut warnings);
        (config, warnings)
    }
}

fn parse_percentiles(text: &str) -> Option<Vec<f64>> {
    let list: Vec<f64> = text.split(',').map(|p| p.trim().parse().ok()).collect::<Option<_>>()?;
    let valid = !list.is_empty() && list.iter().all(|p| (0.0..=100.0).contains(p));
    valid.then_some(list)
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
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self { enabled: true, host: IpAddr::V4(Ipv4Addr::LOCALHOST), port: DEFAULT_METRICS_PORT, token: None }
    }
}

impl ServerSettings {
    /// `HOTPATH_METRICS_SERVER_OFF`, `_PORT`, `_HOST` and `HOTPATH_AUTH_TOKEN`; one warning per bad value.
    fn resolve(env: &impl Fn(&str) -> Option<String>, warnings: &mut Vec<String>) -> Self {
        let mut s = Self::default();
        let mut warn = |name: &str, value: &str, problem: &str, kept: &str| {
            warnings.push(format!("{name}={value:?} {problem}; using {kept}"));
        };
        if let Some(v) = env("HOTPATH_METRICS_SERVER_OFF") {
            match v.trim().to_ascii_lowercase().as_str() {
                "" | "0" | "false" | "no" | "off" => {}
                "1" | "true" | "yes" | "on" => s.enabled = false,
                _ => {
                    s.enabled = false;
                    warn("HOTPATH_METRICS_SERVER_OFF", &v, "is not 1/true/yes/on or 0/false/no/off", "off");
                }
            }
        }
        if let Some(v) = env("HOTPATH_METRICS_PORT") {
            match v.trim().parse() {
                Ok(port) => s.port = port,
                Err(_) => warn("HOTPATH_METRICS_PORT", &v, "is not a port number (0..=65535)", "6770"),
            }
        }
        if let Some(v) = env("HOTPATH_AUTH_TOKEN").filter(|t| !t.is_empty()) {
            // A token travels in a header, where clients trim or reject whitespace and control bytes.
            if v.bytes().all(|b| b.is_ascii_graphic()) {
                s.token = Some(v);
            } else {
                // Fail closed, and never echo a secret: the server stays off rather than open.
                warnings.push(
                    "HOTPATH_AUTH_TOKEN (value hidden) must be printable ASCII without spaces; \
                     the metrics server is not started"
                        .into(),
                );
                s.enabled = false;
            }
        }
        if let Some(v) = env("HOTPATH_METRICS_HOST") {
            let host = match v.trim() {
                "localhost" => Ok(IpAddr::V4(Ipv4Addr::LOCALHOST)),
                other => other.parse::<IpAddr>(),
            };
            match host {
                Err(_) => warnings.push(format!("HOTPATH_METRICS_HOST={v:?} is not an IP address; using 127.0.0.1")),
                Ok(ip) if !ip.is_loopback() && s.token.is_none() => warnings.push(format!(
                    "HOTPATH_METRICS_HOST={v:?} is not loopback and needs HOTPATH_AUTH_TOKEN; using 127.0.0.1"
                )),
                Ok(ip) => s.host = ip,
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hotpath_engine::options::{DEFAULT_LIMIT, DEFAULT_PERCENTILES};

    fn resolve(main: MainConfig, vars: &[(&str, &str)]) -> (Config, Vec<String>) {
        Config::resolve(&main, |k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string()))
    }

    #[test]
    fn parameters_then_environment() {
        let main = MainConfig::new("app::main").format("json").limit(3).percentiles(&[50.0]);
        let (c, w) = resolve(main.clone(), &[]);
        assert_eq!((c.format, c.options.limit, c.options.percentiles.clone()), (Format::Json, 3, vec![50.0]));
        assert!(w.is_empty());
        let (c, w) = resolve(main, &[("HOTPATH_OUTPUT_FORMAT", "table"), ("HOTPATH_LIMIT", "0")]);
        assert_eq!((c.format, c.options.limit), (Format::Table, 0));
        assert!(w.is_empty());
    }

    #[test]
    fn bad_values_warn_and_keep_the_default() {
        let (c, w) = resolve(
            MainConfig::new("m"),
            &[
                ("HOTPATH_LIMIT", "abc"),
                ("HOTPATH_OUTPUT_FORMAT", "xml"),
                ("HOTPATH_FOCUS", "/[/"),
                ("HOTPATH_PERCENTILES", "50,101"),
                ("HOTPATH_CLOCK", "sundial"),
                ("HOTPATH_TIME_SAMPLING_RATE", "1.5"),
            ],
        );
        assert_eq!(c.options.limit, DEFAULT_LIMIT);
        assert_eq!(c.format, Format::Table);
        assert!(c.options.focus.is_none());
        assert_eq!(c.options.percentiles, DEFAULT_PERCENTILES);
        assert_eq!(c.options.time_sampling_rate, 1.0);
        assert_eq!(w.len(), 6);
        assert_eq!(
            w[5],
            "HOTPATH_TIME_SAMPLING_RATE=\"1.5\" is not a number in 0..=1 (0 counts without timing); using 1"
        );
        assert_eq!(w[0], "HOTPATH_OUTPUT_FORMAT=\"xml\" is not one of table, json, json-pretty, none; using table");
        assert_eq!(w[1], "HOTPATH_LIMIT=\"abc\" is not a row count (0 shows all); using 15");
        assert!(w.iter().all(|l| !l.contains('\n')));
    }

    #[test]
    fn server_settings() {
        let (c, w) = resolve(MainConfig::new("m"), &[]);
        assert_eq!(c.server, ServerSettings::default());
        assert!(w.is_empty());
        let (c, w) = resolve(
            MainConfig::new("m"),
            &[("HOTPATH_METRICS_PORT", "0"), ("HOTPATH_METRICS_HOST", "0.0.0.0"), ("HOTPATH_AUTH_TOKEN", "s3cr3t")],
        );
        assert_eq!(
            (c.server.port, c.server.host.to_string(), c.server.token.as_deref()),
            (0, "0.0.0.0".into(), Some("s3cr3t"))
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(!resolve(MainConfig::new("m"), &[("HOTPATH_METRICS_SERVER_OFF", "1")]).0.server.enabled);
        assert!(resolve(MainConfig::new("m"), &[("HOTPATH_METRICS_SERVER_OFF", "0")]).0.server.enabled);
    }

    #[test]
    fn bad_server_values_warn() {
        let (c, w) = resolve(
            MainConfig::new("m"),
            &[
                ("HOTPATH_METRICS_PORT", "70000"),
                ("HOTPATH_METRICS_HOST", "0.0.0.0"),
                ("HOTPATH_METRICS_SERVER_OFF", "maybe"),
            ],
        );
        assert_eq!(c.server.port, DEFAULT_METRICS_PORT);
        assert!(c.server.host.is_loopback());
        assert!(!c.server.enabled);
        assert_eq!(w.len(), 3, "{w:?}");
        assert_eq!(w[1], "HOTPATH_METRICS_PORT=\"70000\" is not a port number (0..=65535); using 6770");
        assert!(w[2].contains("needs HOTPATH_AUTH_TOKEN; using 127.0.0.1"));
        let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_AUTH_TOKEN", "has space")]);
        assert!(!c.server.enabled);
        assert!(w[0].contains("(value hidden)") && !w[0].contains("has space"));
    }

    #[test]
    fn threads_variables_reject_zero_text_and_absurd_values() {
        for bad in ["0", "abc", "99999999999", "-1", ""] {
            let (c, w) =
                resolve(MainConfig::new("m"), &[("HOTPATH_THREADS_INTERVAL_MS", bad), ("HOTPATH_THREADS_LIMIT", bad)]);
            assert_eq!((c.options.threads_interval_ms, c.options.threads_limit), (250, 5), "{bad:?}");
            assert_eq!(w.len(), 2, "{bad:?}: {w:?}");
            assert!(
                w[0].starts_with(&format!("HOTPATH_THREADS_INTERVAL_MS={bad:?} ")) && w[0].ends_with("; using 250")
            );
            assert!(w[1].starts_with(&format!("HOTPATH_THREADS_LIMIT={bad:?} ")) && w[1].ends_with("; using 5"));
        }
        let (c, w) =
            resolve(MainConfig::new("m"), &[("HOTPATH_THREADS_INTERVAL_MS", "50"), ("HOTPATH_THREADS_LIMIT", "12")]);
        assert_eq!((c.options.threads_interval_ms, c.options.threads_limit, w.len()), (50, 12, 0));
    }

    #[test]
    fn tokio_runtime_interval_accepts_milliseconds_and_warns_otherwise() {
        let (c, w) = resolve(MainConfig::new("m"), &[]);
        assert_eq!((c.options.tokio_runtime_interval_ms, w.len()), (1000, 0));
        let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_TOKIO_RUNTIME_INTERVAL_MS", " 20 ")]);
        assert_eq!((c.options.tokio_runtime_interval_ms, w.len()), (20, 0));
        for bad in ["0", "1s", "60001", "-5", ""] {
            let (c, w) = resolve(MainConfig::new("m"), &[("HOTPATH_TOKIO_RUNTIME_INTERVAL_MS", bad)]);
            assert_eq!(c.options.tokio_runtime_interval_ms, 1000, "{bad:?}");
            assert_eq!(
                w,
                [format!(
                    "HOTPATH_TOKIO_RUNTIME_INTERVAL_MS={bad:?} is not a number of milliseconds in 1..=60000; using 1000"
                )]
            );
        }
    }

    #[test]
    fn time_sampling_rate() {
        let rate = |v: &str| resolve(MainConfig::new("m"), &[("HOTPATH_TIME_SAMPLING_RATE", v)]);
        assert_eq!(rate("0.25").0.options.time_sampling_rate, 0.25);
        assert_eq!(rate("0").0.options.time_sampling_rate, 0.0);
        for bad in ["-0.1", "NaN", "all"] {
            let (c, w) = rate(bad);
            assert_eq!((c.options.time_sampling_rate, w.len()), (1.0, 1), "{bad}");
        }
    }
}
