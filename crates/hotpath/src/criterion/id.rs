//! Benchmark ids: Criterion's own keeps its parts private, and profiling needs the full
//! id (`group/function/parameter`) that Criterion's filter matches, so this one keeps
//! them and converts to Criterion's when forwarding.

use std::fmt::Display;

use super::upstream;

/// A benchmark's function name and/or parameter, as Criterion's `BenchmarkId`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchmarkId {
    function: Option<String>,
    parameter: Option<String>,
}

impl BenchmarkId {
    /// A function name and a parameter: `BenchmarkId::new("decode", size)`.
    pub fn new<S: Into<String>, P: Display>(function_name: S, parameter: P) -> Self {
        Self { function: Some(function_name.into()), parameter: Some(parameter.to_string()) }
    }

    /// A parameter only, for groups whose benchmarks differ by input alone.
    pub fn from_parameter<P: Display>(parameter: P) -> Self {
        Self { function: None, parameter: Some(parameter.to_string()) }
    }

    /// The id inside `group`, exactly as Criterion's filter sees it.
    pub(crate) fn full_id(&self, group: &str) -> String {
        let mut id = group.to_string();
        for part in [&self.function, &self.parameter].into_iter().flatten() {
            id.push('/');
            id.push_str(part);
        }
        id
    }

    /// The function name, which `Criterion::bench_with_input` uses as the group.
    pub(crate) fn function(&self) -> Option<&str> {
        self.function.as_deref()
    }

    /// The parameter alone, as an id inside a group.
    pub(crate) fn parameter_only(&self) -> Self {
        Self { function: None, parameter: self.parameter.clone() }
    }

    /// Criterion's id for the same benchmark (Criterion names a function-only id by
    /// its name: its `BenchmarkId` cannot be built without a parameter).
    pub(crate) fn to_upstream(&self) -> UpstreamId {
        match (&self.function, &self.parameter) {
            (Some(f), Some(p)) => UpstreamId::Id(upstream::BenchmarkId::new(f.clone(), p)),
            (None, Some(p)) => UpstreamId::Id(upstream::BenchmarkId::from_parameter(p)),
            (Some(f), None) => UpstreamId::Name(f.clone()),
            (None, None) => UpstreamId::Name(String::new()),
        }
    }
}

/// What Criterion's `bench_function` and `bench_with_input` accept.
pub(crate) enum UpstreamId {
    Id(upstream::BenchmarkId),
    Name(String),
}

/// What a benchmark can be named by: a [`BenchmarkId`] or a function name.
pub trait IntoBenchmarkId {
    /// The id.
    fn into_benchmark_id(self) -> BenchmarkId;
}

impl IntoBenchmarkId for BenchmarkId {
    fn into_benchmark_id(self) -> BenchmarkId {
        self
    }
}

impl<S: Into<String>> IntoBenchmarkId for S {
    fn into_benchmark_id(self) -> BenchmarkId {
        BenchmarkId { function: Some(self.into()), parameter: None }
    }
}
