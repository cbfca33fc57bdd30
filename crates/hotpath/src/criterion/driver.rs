//! `Criterion`, the value benchmark functions receive, and the `main` of
//! `criterion_main!`.

use std::path::Path;
use std::time::Duration;

use super::bencher::Bencher;
use super::group::{profile_one, BenchmarkGroup};
use super::id::{BenchmarkId, UpstreamId};
use super::session::{self, Pass};
use super::upstream::{self, measurement::Measurement, measurement::WallTime, profiler::Profiler, PlottingBackend};

/// The benchmark manager: Criterion's, wrapped so that profile mode can run one
/// benchmark its own way. Configure it as Criterion's (`Criterion::default().sample_size(10)`).
pub struct Criterion<M: Measurement = WallTime> {
    inner: upstream::Criterion<M>,
}

impl Default for Criterion {
    fn default() -> Self {
        Self { inner: upstream::Criterion::default() }
    }
}

impl<M: Measurement> From<upstream::Criterion<M>> for Criterion<M> {
    fn from(inner: upstream::Criterion<M>) -> Self {
        Self { inner }
    }
}

/// Builder methods forwarded to Criterion's.
macro_rules! builder {
    ($( $(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*); )*) => {
        $(
            $(#[$doc])*
            #[must_use]
            pub fn $name(self, $($arg: $ty),*) -> Self {
                Self { inner: self.inner.$name($($arg),*) }
            }
        )*
    };
}

impl<M: Measurement + 'static> Criterion<M> {
    builder! {
        /// Samples per benchmark (default 100).
        fn sample_size(n: usize);
        /// Warm-up time per benchmark.
        fn warm_up_time(duration: Duration);
        /// Measurement time per benchmark.
        fn measurement_time(duration: Duration);
        /// Bootstrap resamples.
        fn nresamples(n: usize);
        /// Changes below this fraction are noise.
        fn noise_threshold(threshold: f64);
        /// Confidence level of the intervals.
        fn confidence_level(level: f64);
        /// Significance level of the change tests.
        fn significance_level(level: f64);
        /// Plots on.
        fn with_plots();
        /// Plots off.
        fn without_plots();
        /// The plotting backend.
        fn plotting_backend(backend: PlottingBackend);
        /// Saves results under this baseline name.
        fn save_baseline(baseline: String);
        /// Compares against this baseline.
        fn retain_baseline(baseline: String, strict: bool);
        /// Colored output on or off.
        fn with_output_color(enabled: bool);
        /// Where results are written.
        fn output_directory(path: &Path);
        /// Profile-time mode (Criterion's `--profile-time`).
        fn profile_time(time: Option<Duration>);
        /// Reads Criterion's command line (the filter, `--test`, ...).
        fn configure_from_args();
    }

    /// Benchmarks matching this regex only; the command line's filter replaces it, and
    /// profile mode reads the command line only.
    #[must_use]
    pub fn with_filter<S: Into<String>>(self, filter: S) -> Self {
        Self { inner: self.inner.with_filter(filter) }
    }

    /// Another measurement (Criterion's `with_measurement`).
    pub fn with_measurement<M2: Measurement>(self, measurement: M2) -> Criterion<M2> {
        Criterion { inner: self.inner.with_measurement(measurement) }
    }

    /// A profiler hooked around each benchmark (Criterion's `with_profiler`).
    #[must_use]
    pub fn with_profiler<P: Profiler + 'static>(self, profiler: P) -> Self {
        Self { inner: self.inner.with_profiler(profiler) }
    }

    /// Criterion's end-of-run summary.
    pub fn final_summary(&self) {
        self.inner.final_summary();
    }

    /// A group of benchmarks named `<group>/<id>`.
    pub fn benchmark_group<S: Into<String>>(&mut self, group_name: S) -> BenchmarkGroup<'_, M> {
        let name = group_name.into();
        match session::profile() {
            Some(profile) => BenchmarkGroup::profile(name, profile),
            None => {
                let group = self.inner.benchmark_group(name.clone());
                BenchmarkGroup::forward(name, group)
            }
        }
    }

    /// Benchmarks `f` under the name `id`.
    pub fn bench_function<F: FnMut(&mut Bencher<'_, '_, M>)>(&mut self, id: &str, mut f: F) -> &mut Self {
        match session::profile() {
            Some(profile) => profile_one(profile, id, f),
            None => {
                self.inner.bench_function(id, |b| f(&mut Bencher::forward(b)));
            }
        }
        self
    }

    /// Benchmarks `f` on `input` as `<function>/<parameter>` (an id made by `BenchmarkId::new`).
    pub fn bench_with_input<F, I>(&mut self, id: BenchmarkId, input: &I, mut f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, '_, M>, &I),
    {
        match (session::profile(), id.function()) {
            (Some(profile), Some(function)) => {
                profile_one(profile, &id.parameter_only().full_id(function), |b| f(b, input))
            }
            (Some(_), None) => session::fail("Criterion::bench_with_input needs BenchmarkId::new, not from_parameter"),
            (None, _) => match id.to_upstream() {
                UpstreamId::Id(id) => {
                    self.inner.bench_with_input(id, input, |b, i| f(&mut Bencher::forward(b), i));
                }
                UpstreamId::Name(id) => {
                    self.inner.bench_function(&id, |b| f(&mut Bencher::forward(b), input));
                }
            },
        }
        self
    }
}

/// The `main` of `criterion_main!`. Normally: the groups, then Criterion's summary.
/// Profile mode: the groups once to find the selected benchmark (no routine runs),
/// an error unless exactly one is selected, then once more to profile it.
pub fn __run(groups: &[fn()]) {
    if session::profile().is_none() {
        for group in groups {
            group();
        }
        upstream::Criterion::default().configure_from_args().final_summary();
        return;
    }
    session::set_pass(Pass::Listing);
    for group in groups {
        group();
    }
    session::check_selection();
    session::set_pass(Pass::Running);
    for group in groups {
        group();
    }
    session::set_pass(Pass::Direct);
}
