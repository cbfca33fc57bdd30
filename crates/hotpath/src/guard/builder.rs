//! `HotpathGuardBuilder` and `HotpathGuard`: one definition for both modes, each
//! method's effect compiled only with the `hotpath` feature.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use super::{Format, Section};

#[cfg(feature = "hotpath")]
use hotpath_engine::sampling::Sampled;
// The builder's own copies of values (names, paths, parsed specs) are the profiler's,
// made untracked; values handed over whole (`sections`, `user_metadata`) stay the
// program's, allocated and freed where it allocated them.
#[cfg(feature = "hotpath")]
use hotpath_engine::memory::untracked;
#[cfg(feature = "hotpath")]
use hotpath_session::MainConfig;

/// Configures and starts a profiling session from code:
///
/// ```
/// let guard = hotpath::HotpathGuardBuilder::new("my_app::run")
///     .percentiles(&[50.0, 99.0])
///     .format(hotpath::Format::Json)
///     .build();
/// // ... the measured part of the program ...
/// drop(guard); // writes the report
/// ```
///
/// One session runs at a time: building a guard while another (or a
/// `#[hotpath::main]`) is alive prints one line saying so, and the new guard does
/// nothing. After a session's report, a new guard starts a fresh session. The
/// environment (`HOTPATH_*`) overrides what the builder sets.
///
/// Cost: off, none (every method is a no-op). On, as `#[hotpath::main]`.
#[must_use = "a builder does nothing until `build` or `build_with_shutdown`"]
pub struct HotpathGuardBuilder {
    #[cfg(feature = "hotpath")]
    config: MainConfig,
}

/// Profiles the program while alive; the report is written when it is dropped.
#[must_use = "profiling stops and the report is printed when the guard is dropped"]
#[derive(Default)]
pub struct HotpathGuard {
    #[cfg(feature = "hotpath")]
    _session: Option<hotpath_session::MainGuard>,
}

/// Methods that take a value and return the builder, identical in both modes.
macro_rules! setters {
    ($( $(#[$doc:meta])* fn $name:ident($arg:ident: $ty:ty) => |$c:ident| $on:expr; )*) => {
        $(
            $(#[$doc])*
            #[allow(unused_mut, unused_variables)]
            pub fn $name(mut self, $arg: $ty) -> Self {
                #[cfg(feature = "hotpath")]
                {
                    let $c = self.config;
                    self.config = $on;
                }
                self
            }
        )*
    };
}

/// `<group>_limit`, one per limit group of the section list (`hotpath-sections`).
macro_rules! limit_setters {
    (sections { $($sections:tt)* } limits { $( $method:ident: $group:literal, $default:literal, $what:literal; )* }) => {
        impl HotpathGuardBuilder {
            setters! {
                $(
                    #[doc = concat!($what, ". 0 shows every row; the default is ", $default, ".")]
                    fn $method(limit: usize) => |c| c.$method(limit);
                )*
            }
        }
    };
}
hotpath_sections::sections!(limit_setters);

impl HotpathGuardBuilder {
    /// A builder for a session named `caller_name` (the report's caller and its own row).
    #[allow(unused_variables)]
    pub fn new(caller_name: &'static str) -> Self {
        Self {
            #[cfg(feature = "hotpath")]
            config: untracked(|| MainConfig::new(caller_name)),
        }
    }

    setters! {
        /// Percentile columns, each in 0..=100 (default 50, 95, 99).
        fn percentiles(percentiles: &[f64]) => |c| untracked(|| c.percentiles(percentiles));
        /// Output format (default table); `HOTPATH_OUTPUT_FORMAT` beats it.
        fn format(format: Format) => |c| c.output_format(format);
        /// Rows of every section (0 shows all); per-section limits set after it win.
        fn limit(limit: usize) => |c| c.limit(limit);
        /// Exactly these sections; `HOTPATH_REPORT` beats it.
        fn sections(sections: Vec<Section>) => |c| c.sections(sections);
        /// Every section with data except these.
        fn sections_exclude(sections: Vec<Section>) => |c| c.sections_exclude(sections);
        /// Sections in the `HOTPATH_REPORT` grammar: `all`, `auto`, `channels,io`, `auto,-threads`.
        fn report(spec: &str) => |c| untracked(|| c.report(spec));
        /// Free-form pairs shown with the report; `HOTPATH_USER_METADATA` adds to them.
        fn user_metadata(metadata: HashMap<String, String>) => |c| c.user_metadata(metadata);
        /// Fraction of every instrument's calls whose duration is measured (counts stay exact).
        fn time_sampling_rate(rate: f64) => |c| c.time_sampling_rate(rate);
        /// The same for measured functions.
        fn functions_time_sampling_rate(rate: f64) => |c| c.sampling_rate(Sampled::Functions, rate);
        /// The same for `mutex!` waits and holds.
        fn mutexes_time_sampling_rate(rate: f64) => |c| c.sampling_rate(Sampled::Mutexes, rate);
        /// The same for `rw_lock!` waits and holds.
        fn rw_locks_time_sampling_rate(rate: f64) => |c| c.sampling_rate(Sampled::RwLocks, rate);
        /// The same for futures (decided once per call).
        fn futures_time_sampling_rate(rate: f64) => |c| c.sampling_rate(Sampled::Futures, rate);
        /// The same for channel latencies.
        fn channels_time_sampling_rate(rate: f64) => |c| c.sampling_rate(Sampled::Channels, rate);
        /// The same for `io!` operations.
        fn io_time_sampling_rate(rate: f64) => |c| c.sampling_rate(Sampled::Io, rate);
        /// Keeps the profiler's estimated share of CPU time under `fraction` (0.01 for
        /// 1%; above 0, at most 0.5) by timing hot functions' calls at lower rates,
        /// decided by the collector; counts stay exact and estimates carry 95%
        /// intervals. Off by default; `HOTPATH_OVERHEAD_BUDGET` beats it, a functions
        /// time-sampling rate wins over it.
        fn overhead_budget(fraction: f64) => |c| c.overhead_budget(fraction);
        /// Whether work done while serving an HTTP request also counts for its route
        /// (default on; `HOTPATH_ROUTE_SCOPE`).
        fn route_scope(on: bool) => |c| c.route_scope(on);
        /// Records the timeline, the flight recorder of what every thread did
        /// (default off; `HOTPATH_TIMELINE`).
        fn timeline(on: bool) => |c| c.timeline(on);
    }

    /// Writes the report to this file instead of standard output (a relative path is
    /// taken from the current directory now); `HOTPATH_OUTPUT_PATH` beats it.
    #[allow(unused_mut)]
    pub fn output_path(mut self, path: impl AsRef<Path>) -> Self {
        #[cfg(feature = "hotpath")]
        {
            let path = path.as_ref();
            self.config = untracked(|| self.config.output_path(path));
        }
        #[cfg(not(feature = "hotpath"))]
        let _ = path.as_ref();
        self
    }

    /// Adds a process label to every series of `/metrics`, e.g. `("service", "api")`,
    /// so a fleet's series say where they come from. A name that is no valid label
    /// name, starts with `__`, or is one of hotpath's own labels (`function`, `le`,
    /// ...) is a warning at start and is ignored; `HOTPATH_METRICS_LABELS` beats a name
    /// set here.
    #[allow(unused_mut)]
    pub fn metrics_label(mut self, name: &str, value: &str) -> Self {
        #[cfg(feature = "hotpath")]
        {
            self.config = untracked(|| self.config.metrics_label(name, value));
        }
        #[cfg(not(feature = "hotpath"))]
        let _ = (name, value);
        self
    }

    /// Pushes metrics to an OTLP/HTTP endpoint every 10 s (`otlp_interval`): a base
    /// URL such as `http://localhost:4318` (`/v1/metrics` is appended) or a full
    /// `.../v1/metrics` one; plain `http://` only. `HOTPATH_OTLP_ENDPOINT` beats it.
    #[allow(unused_mut)]
    pub fn otlp_endpoint(mut self, url: &str) -> Self {
        #[cfg(feature = "hotpath")]
        {
            self.config = untracked(|| self.config.otlp_endpoint(url));
        }
        #[cfg(not(feature = "hotpath"))]
        let _ = url;
        self
    }

    /// Time between OTLP pushes, 100 ms to 1 h (default 10 s; others are ignored);
    /// `HOTPATH_OTLP_INTERVAL` beats it.
    #[allow(unused_mut)]
    pub fn otlp_interval(mut self, interval: std::time::Duration) -> Self {
        #[cfg(feature = "hotpath")]
        {
            self.config = self.config.otlp_interval(interval);
        }
        #[cfg(not(feature = "hotpath"))]
        let _ = interval;
        self
    }

    /// Writes the timeline to this file when the session ends, and turns the recorder
    /// on: `.json` is Chrome trace-event JSON, any other name Perfetto protobuf (a
    /// relative path is taken from the current directory now);
    /// `HOTPATH_TIMELINE_OUTPUT` beats it.
    #[allow(unused_mut)]
    pub fn timeline_output(mut self, path: impl AsRef<Path>) -> Self {
        #[cfg(feature = "hotpath")]
        {
            let path = path.as_ref();
            self.config = untracked(|| self.config.timeline_output(path));
        }
        #[cfg(not(feature = "hotpath"))]
        let _ = path.as_ref();
        self
    }

    /// Runs `f` once, before the final report (its measured calls are counted).
    #[allow(unused_mut)]
    pub fn before_shutdown(mut self, f: impl FnOnce() + Send + 'static) -> Self {
        #[cfg(feature = "hotpath")]
        {
            self.config = untracked(|| self.config.before_shutdown(f));
        }
        #[cfg(not(feature = "hotpath"))]
        drop(f);
        self
    }

    /// Starts the session; the report is written when the guard is dropped.
    pub fn build(self) -> HotpathGuard {
        #[cfg(feature = "hotpath")]
        {
            hotpath_live::install();
            let guard = hotpath_session::MainGuard::start(self.config);
            HotpathGuard { _session: guard.is_active().then_some(guard) }
        }
        #[cfg(not(feature = "hotpath"))]
        HotpathGuard::default()
    }

    /// Starts the session in the background: after `duration` (`HOTPATH_SHUTDOWN_MS`
    /// beats it) the report is written and the process exits with status 0; a zero
    /// duration keeps the session until the program ends. Returns at once.
    #[allow(unused_variables)]
    pub fn build_with_shutdown(self, duration: Duration) {
        #[cfg(feature = "hotpath")]
        {
            hotpath_live::install();
            hotpath_session::start_with_shutdown(self.config, duration);
        }
    }
}
