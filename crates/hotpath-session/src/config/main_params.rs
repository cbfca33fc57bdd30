//! The session parameters beyond the basic ones: report sections, per-section row
//! limits, time sampling, metadata, route scope and the shutdown hook. The
//! `#[hotpath::main(...)]` expansion and `HotpathGuardBuilder` call these.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use hotpath_engine::sampling::Sampled;
use hotpath_model::Section;

use super::{MainConfig, SectionSpec};

impl MainConfig {
    /// Which sections to show, in the `HOTPATH_REPORT` grammar: `all`, `auto`,
    /// names (`functions-timing,channels`) and exclusions (`auto,-threads`).
    pub fn report(mut self, spec: &str) -> Self {
        let (spec, unknown) = SectionSpec::parse(spec);
        self.sections = Some(spec);
        self.unknown_sections = unknown;
        self
    }

    /// Exactly these sections.
    pub fn sections(mut self, sections: Vec<Section>) -> Self {
        self.sections = Some(SectionSpec::Explicit(sections));
        self
    }

    /// Every section with data except these.
    pub fn sections_exclude(mut self, sections: Vec<Section>) -> Self {
        self.sections = Some(SectionSpec::Auto { include: Vec::new(), exclude: sections });
        self
    }

    /// Records the flight recorder's timeline (`HOTPATH_TIMELINE` beats it).
    pub fn timeline(mut self, on: bool) -> Self {
        self.timeline = Some(on);
        self
    }

    /// Writes the timeline to this file at exit and turns the recorder on: `.json` is
    /// Chrome JSON, any other name Perfetto protobuf; a relative path is taken from the
    /// current directory now (`HOTPATH_TIMELINE_OUTPUT` beats it).
    pub fn timeline_output(mut self, path: impl AsRef<std::path::Path>) -> Self {
        let path = path.as_ref();
        self.timeline_output = Some(std::env::current_dir().map_or_else(|_| path.to_path_buf(), |dir| dir.join(path)));
        self
    }

    /// Rows of the sections of one limit group (`functions`, `channels`, ...).
    pub fn group_limit(mut self, group: &str, limit: usize) -> Self {
        self.limits.set(group, limit);
        self
    }

    /// The fraction of calls of every instrument whose duration is measured.
    pub fn time_sampling_rate(mut self, rate: f64) -> Self {
        self.sampling.0 = valid(rate);
        self
    }

    /// The fraction of `kind`'s calls whose duration is measured.
    pub fn sampling_rate(mut self, kind: Sampled, rate: f64) -> Self {
        self.sampling.1[kind as usize] = valid(rate);
        self
    }

    /// Keeps the profiler's estimated share of CPU time under `fraction` (0.01 for 1%,
    /// above 0, at most 0.5; others are ignored) by timing hot functions' calls at lower
    /// rates; counts stay exact and sampled figures carry 95% intervals. Off by
    /// default (every call timed); `HOTPATH_OVERHEAD_BUDGET` beats it, and a
    /// functions time-sampling rate, where set, wins over it.
    pub fn overhead_budget(mut self, fraction: f64) -> Self {
        self.overhead_budget = hotpath_sections::valid_budget(fraction).then_some(fraction).or(self.overhead_budget);
        self
    }

    /// Free-form pairs shown with the report (`HOTPATH_USER_METADATA` adds to them).
    pub fn user_metadata(mut self, metadata: HashMap<String, String>) -> Self {
        self.user_metadata = metadata.into_iter().collect::<BTreeMap<_, _>>();
        self
    }

    /// Whether work done while serving an HTTP request is also attributed to its route.
    pub fn route_scope(mut self, on: bool) -> Self {
        self.route_scope = Some(on);
        self
    }

    /// Adds a process label to every series of `/metrics` (`service`, `zone`, ...);
    /// a bad name is a warning at start. `HOTPATH_METRICS_LABELS` beats a name set here.
    pub fn metrics_label(mut self, name: &str, value: &str) -> Self {
        self.metrics_labels.push((name.to_string(), value.to_string()));
        self
    }

    /// Pushes metrics to this OTLP/HTTP endpoint (`http://collector:4318`, or a full
    /// `.../v1/metrics` URL); `HOTPATH_OTLP_ENDPOINT` beats it.
    pub fn otlp_endpoint(mut self, url: &str) -> Self {
        self.otlp_endpoint = Some(url.to_string());
        self
    }

    /// Time between OTLP pushes (100 ms to 1 h, default 10 s; others are ignored);
    /// `HOTPATH_OTLP_INTERVAL` beats it.
    pub fn otlp_interval(mut self, interval: std::time::Duration) -> Self {
        let ok = (std::time::Duration::from_millis(100)..=std::time::Duration::from_secs(3600)).contains(&interval);
        self.otlp_interval = ok.then_some(interval).or(self.otlp_interval);
        self
    }

    /// Runs `f` once, before the final report is built.
    pub fn before_shutdown(mut self, f: impl FnOnce() + Send + 'static) -> Self {
        self.before_shutdown = Some(Arc::new(Mutex::new(Some(Box::new(f)))));
        self
    }
}

/// A rate in 0..=1, or `None` (ignored) for anything else.
fn valid(rate: f64) -> Option<f64> {
    (0.0..=1.0).contains(&rate).then_some(rate)
}

/// `MainConfig::<group>_limit`, one per limit group of the section list.
macro_rules! limit_methods {
    (sections { $($sections:tt)* } limits { $( $method:ident: $group:literal, $default:literal, $what:literal; )* }) => {
        impl MainConfig {
            $(
                #[doc = concat!($what, ". 0 shows every row; the default is ", $default, ".")]
                pub fn $method(self, limit: usize) -> Self {
                    self.group_limit($group, limit)
                }
            )*
        }
    };
}
hotpath_sections::sections!(limit_methods);
