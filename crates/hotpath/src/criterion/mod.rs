//! A drop-in for `use criterion::...` in a user's Criterion benches that can also
//! profile one benchmark under hotpath.
//!
//! ```
//! use hotpath::criterion::{criterion_group, BatchSize, BenchmarkId, Criterion};
//!
//! fn sums(c: &mut Criterion) {
//!     let mut group = c.benchmark_group("sum");
//!     for len in [16u64, 256] {
//!         group.bench_with_input(BenchmarkId::new("vec", len), &len, |b, &len| {
//!             b.iter_batched(|| vec![1u64; len as usize], |v| v.iter().sum::<u64>(), BatchSize::SmallInput)
//!         });
//!     }
//!     group.finish();
//! }
//!
//! criterion_group!(benches, sums);
//! // criterion_main!(benches); in a bench file: `main` runs the groups.
//! ```
//!
//! Without `HOTPATH_CRITERION_ITERATIONS` every type forwards to Criterion: same
//! benchmarks, same output, same files. With `HOTPATH_CRITERION_ITERATIONS=N` and a
//! filter that selects exactly one benchmark (`cargo bench --bench codec -- --exact
//! "group/id"`), Criterion does not run: the selected routine runs exactly N times under
//! one hotpath session named `hotpath::criterion::bench`, each call a row
//! `hotpath::criterion::routine` (or `hotpath::criterion::async_routine`), and the report
//! (every `HOTPATH_*` variable applies) carries `criterion_benchmark` and
//! `criterion_iterations` in its user metadata. A filter that selects no benchmark, or
//! several, is an error (exit status 1) before anything runs; so is an N that is not a
//! positive integer. With the `hotpath` feature off the variable is ignored (one note)
//! and everything forwards to Criterion.
//!
//! Only what runs a routine exactly N times exists on [`Bencher`] and [`AsyncBencher`]:
//! anything else Criterion offers there fails to compile rather than profile a
//! different number of iterations. Criterion's deprecated `iter_with_large_setup`, for one:
//!
//! ```compile_fail
//! # use hotpath::criterion::{async_executor::AsyncExecutor, Bencher};
//! # struct Exec;
//! # impl AsyncExecutor for Exec {
//! #     fn block_on<T>(&self, f: impl std::future::Future<Output = T>) -> T {
//! #         let mut f = std::pin::pin!(f);
//! #         let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
//! #         loop {
//! #             if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
//! #                 return v;
//! #             }
//! #             std::thread::yield_now();
//! #         }
//! #     }
//! # }
//! fn bench(b: &mut Bencher) {
//!     b.to_async(Exec).iter_with_large_setup(|| 1, |x| async move { x });
//! }
//! ```
//!
//! ```
//! # use hotpath::criterion::{async_executor::AsyncExecutor, Bencher};
//! # struct Exec;
//! # impl AsyncExecutor for Exec {
//! #     fn block_on<T>(&self, f: impl std::future::Future<Output = T>) -> T {
//! #         let mut f = std::pin::pin!(f);
//! #         let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
//! #         loop {
//! #             if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
//! #                 return v;
//! #             }
//! #             std::thread::yield_now();
//! #         }
//! #     }
//! # }
//! fn bench(b: &mut Bencher) {
//!     b.to_async(Exec).iter_with_setup(|| 1, |x| async move { x });
//! }
//! ```
//!
//! Features `criterion-0-5` … `criterion-0-8` pick the
//! Criterion version; the newest enabled wins.

mod bencher;
mod bencher_async;
mod driver;
mod filter;
mod group;
mod id;
mod measured;
mod session;
mod upstream;

pub use bencher::Bencher;
pub use bencher_async::AsyncBencher;
pub use driver::Criterion;
pub use group::BenchmarkGroup;
pub use id::{BenchmarkId, IntoBenchmarkId};
pub use upstream::{
    async_executor, measurement, profiler, AxisScale, BatchSize, PlotConfiguration, PlottingBackend, SamplingMode,
    Throughput,
};

#[doc(inline)]
pub use crate::{criterion_group, criterion_main};

#[doc(hidden)]
pub use driver::__run;

/// Keeps the optimizer from deleting or hoisting a computation (`std::hint::black_box`).
#[inline(always)]
pub fn black_box<T>(value: T) -> T {
    std::hint::black_box(value)
}

/// Defines a function running benchmark targets, like Criterion's macro of that name:
/// `criterion_group!(benches, a, b)` or
/// `criterion_group!(name = benches; config = Criterion::default().sample_size(10); targets = a, b)`.
/// The config may be this module's [`Criterion`] or Criterion's own.
#[macro_export]
macro_rules! criterion_group {
    (name = $name:ident; config = $config:expr; targets = $( $target:path ),+ $(,)*) => {
        /// The function which runs the benchmarks.
        pub fn $name() {
            let mut criterion: $crate::criterion::Criterion<_> =
                $crate::criterion::Criterion::from($config).configure_from_args();
            $(
                $target(&mut criterion);
            )+
        }
    };
    ($name:ident, $( $target:path ),+ $(,)*) => {
        $crate::criterion_group! {
            name = $name;
            config = $crate::criterion::Criterion::default();
            targets = $( $target ),+
        }
    };
}

/// Defines `main` running benchmark groups, like Criterion's macro of that name:
/// `criterion_main!(benches)`. With `hotpath-alloc` it installs hotpath's counting global
/// allocator (around `System`, or `criterion_main!(allocator = path; benches)`), which
/// `criterion_main!(allocator = none; benches)` leaves out.
#[macro_export]
macro_rules! criterion_main {
    (allocator = none; $( $group:path ),+ $(,)*) => {
        fn main() {
            $crate::criterion::__run(&[$( $group as fn() ),+]);
        }
    };
    (allocator = $alloc:path; $( $group:path ),+ $(,)*) => {
        $crate::__hotpath_criterion_allocator!($alloc);
        $crate::criterion_main!(allocator = none; $( $group ),+);
    };
    ($( $group:path ),+ $(,)*) => {
        $crate::criterion_main!(allocator = ::std::alloc::System; $( $group ),+);
    };
}

/// The counting global allocator of `criterion_main!`, with `hotpath-alloc`.
#[cfg(feature = "hotpath-alloc")]
#[doc(hidden)]
#[macro_export]
macro_rules! __hotpath_criterion_allocator {
    ($alloc:path) => {
        #[global_allocator]
        static __HOTPATH_CRITERION_ALLOCATOR: $crate::__private::CountingAllocator<$alloc> =
            $crate::__private::CountingAllocator::new($alloc);
    };
}

/// Without `hotpath-alloc`, `criterion_main!` installs no allocator.
#[cfg(not(feature = "hotpath-alloc"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __hotpath_criterion_allocator {
    ($alloc:path) => {};
}
