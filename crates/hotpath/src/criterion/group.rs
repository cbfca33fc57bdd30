//! `BenchmarkGroup`: Criterion's group in normal runs; in profile mode only a name,
//! under which the selected benchmark runs its routine N times.

use super::bencher::Bencher;
use super::id::{IntoBenchmarkId, UpstreamId};
use super::session::{self, Profile};
use super::upstream::{
    self, measurement::Measurement, measurement::WallTime, PlotConfiguration, SamplingMode, Throughput,
};
use std::time::Duration;

/// Benchmarks sharing a name prefix and settings, from `Criterion::benchmark_group`.
pub struct BenchmarkGroup<'a, M: Measurement = WallTime> {
    name: String,
    inner: Inner<'a, M>,
}

enum Inner<'a, M: Measurement> {
    Forward(upstream::BenchmarkGroup<'a, M>),
    Profile(&'static Profile),
}

/// Settings forwarded to Criterion's group; profiling has none of them.
macro_rules! settings {
    ($( $(#[$doc:meta])* fn $name:ident($arg:ident: $ty:ty); )*) => {
        $(
            $(#[$doc])*
            pub fn $name(&mut self, $arg: $ty) -> &mut Self {
                if let Inner::Forward(group) = &mut self.inner {
                    group.$name($arg);
                }
                self
            }
        )*
    };
}

impl<'a, M: Measurement> BenchmarkGroup<'a, M> {
    pub(crate) fn forward(name: String, group: upstream::BenchmarkGroup<'a, M>) -> Self {
        Self { name, inner: Inner::Forward(group) }
    }

    pub(crate) fn profile(name: String, profile: &'static Profile) -> Self {
        Self { name, inner: Inner::Profile(profile) }
    }

    settings! {
        /// Samples per benchmark.
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
        /// Plot settings of the group's summary.
        fn plot_config(config: PlotConfiguration);
        /// Throughput of each iteration, for rates in the output.
        fn throughput(throughput: Throughput);
        /// How iteration counts are chosen per sample.
        fn sampling_mode(mode: SamplingMode);
    }

    /// Benchmarks `f` as `<group>/<id>`.
    pub fn bench_function<ID: IntoBenchmarkId, F>(&mut self, id: ID, mut f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, '_, M>),
    {
        let id = id.into_benchmark_id();
        match &mut self.inner {
            Inner::Forward(group) => match id.to_upstream() {
                UpstreamId::Id(id) => {
                    group.bench_function(id, |b| f(&mut Bencher::forward(b)));
                }
                UpstreamId::Name(id) => {
                    group.bench_function(id, |b| f(&mut Bencher::forward(b)));
                }
            },
            Inner::Profile(profile) => profile_one(profile, &id.full_id(&self.name), f),
        };
        self
    }

    /// Benchmarks `f` on `input` as `<group>/<id>`.
    pub fn bench_with_input<ID: IntoBenchmarkId, F, I: ?Sized>(&mut self, id: ID, input: &I, mut f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, '_, M>, &I),
    {
        let id = id.into_benchmark_id();
        match &mut self.inner {
            Inner::Forward(group) => match id.to_upstream() {
                UpstreamId::Id(id) => {
                    group.bench_with_input(id, input, |b, i| f(&mut Bencher::forward(b), i));
                }
                UpstreamId::Name(id) => {
                    group.bench_with_input(id, input, |b, i| f(&mut Bencher::forward(b), i));
                }
            },
            Inner::Profile(profile) => profile_one(profile, &id.full_id(&self.name), |b| f(b, input)),
        };
        self
    }

    /// Ends the group (Criterion prints its summary).
    pub fn finish(self) {
        if let Inner::Forward(group) = self.inner {
            group.finish();
        }
    }
}

/// Profile mode: runs `f` with a profiling bencher if `id` is the selected benchmark.
pub(crate) fn profile_one<M: Measurement>(profile: &Profile, id: &str, mut f: impl FnMut(&mut Bencher<'_, '_, M>)) {
    if let Some(mut run) = session::select(profile, id) {
        f(&mut Bencher::profile(&mut run));
        run.finish();
    }
}
