//! `Bencher`: Criterion's bencher in normal runs; in profile mode each method runs its
//! routine exactly N times. Only such methods exist here, so a bench using anything
//! else does not compile against `hotpath::criterion`.

use std::hint::black_box;

use super::bencher_async::AsyncBencher;
use super::measured::{batches, routine as measured};
use super::session::Run;
use super::upstream::{
    self, async_executor::AsyncExecutor, measurement::Measurement, measurement::WallTime, BatchSize,
};

/// Runs a benchmark's routine; passed to the functions given to `bench_function`.
pub struct Bencher<'a, 'b, M: Measurement = WallTime> {
    inner: Inner<'a, 'b, M>,
}

enum Inner<'a, 'b, M: Measurement> {
    Forward(&'a mut upstream::Bencher<'b, M>),
    Profile(&'a mut Run),
}

impl<'a, 'b, M: Measurement> Bencher<'a, 'b, M> {
    pub(crate) fn forward(bencher: &'a mut upstream::Bencher<'b, M>) -> Self {
        Self { inner: Inner::Forward(bencher) }
    }

    pub(crate) fn profile(run: &'a mut Run) -> Self {
        Self { inner: Inner::Profile(run) }
    }

    /// Times `routine` (Criterion's `iter`); profiling, N calls.
    #[inline(never)]
    pub fn iter<O, R: FnMut() -> O>(&mut self, mut routine: R) {
        match &mut self.inner {
            Inner::Forward(b) => b.iter(routine),
            Inner::Profile(run) => run.once(|n| {
                for _ in 0..n {
                    measured(|| drop(black_box(routine())));
                }
            }),
        }
    }

    /// `routine(iters)` measures itself (Criterion's `iter_custom`); profiling, one call
    /// with N and no per-iteration row.
    #[inline(never)]
    pub fn iter_custom<R: FnMut(u64) -> M::Value>(&mut self, mut routine: R) {
        match &mut self.inner {
            Inner::Forward(b) => b.iter_custom(routine),
            Inner::Profile(run) => run.once(|n| drop(black_box(routine(n)))),
        }
    }

    /// A fresh input per call, set up untimed (Criterion's `iter_with_setup`).
    pub fn iter_with_setup<I, O, S: FnMut() -> I, R: FnMut(I) -> O>(&mut self, setup: S, routine: R) {
        self.iter_batched(setup, routine, BatchSize::PerIteration);
    }

    /// Outputs dropped outside the timed part (Criterion's `iter_with_large_drop`).
    #[inline(never)]
    pub fn iter_with_large_drop<O, R: FnMut() -> O>(&mut self, mut routine: R) {
        match &mut self.inner {
            Inner::Forward(b) => b.iter_with_large_drop(routine),
            Inner::Profile(run) => run.once(|n| {
                for _ in 0..n {
                    drop(measured(&mut routine));
                }
            }),
        }
    }

    /// Inputs set up per batch, outputs dropped after it (Criterion's `iter_batched`);
    /// profiling, N calls in batches sized as Criterion sizes them.
    #[inline(never)]
    pub fn iter_batched<I, O, S: FnMut() -> I, R: FnMut(I) -> O>(
        &mut self,
        mut setup: S,
        mut routine: R,
        size: BatchSize,
    ) {
        match &mut self.inner {
            Inner::Forward(b) => b.iter_batched(setup, routine, size),
            Inner::Profile(run) => run.once(|n| {
                for len in batches(size, n) {
                    let inputs: Vec<I> = (0..len).map(|_| black_box(setup())).collect();
                    let outputs: Vec<O> = inputs.into_iter().map(|input| measured(|| routine(input))).collect();
                    drop(black_box(outputs));
                }
            }),
        }
    }

    /// As [`iter_batched`](Self::iter_batched), the routine taking `&mut` input.
    #[inline(never)]
    pub fn iter_batched_ref<I, O, S: FnMut() -> I, R: FnMut(&mut I) -> O>(
        &mut self,
        mut setup: S,
        mut routine: R,
        size: BatchSize,
    ) {
        match &mut self.inner {
            Inner::Forward(b) => b.iter_batched_ref(setup, routine, size),
            Inner::Profile(run) => run.once(|n| {
                for len in batches(size, n) {
                    let mut inputs: Vec<I> = (0..len).map(|_| black_box(setup())).collect();
                    let outputs: Vec<O> = inputs.iter_mut().map(|input| measured(|| routine(input))).collect();
                    drop(black_box(outputs));
                    drop(inputs);
                }
            }),
        }
    }

    /// Async routines on `runner`, any Criterion `AsyncExecutor` (Criterion's `to_async`).
    pub fn to_async<'c, A: AsyncExecutor>(&'c mut self, runner: A) -> AsyncBencher<'c, 'b, A, M> {
        match &mut self.inner {
            Inner::Forward(b) => AsyncBencher::forward(b.to_async(runner)),
            Inner::Profile(run) => AsyncBencher::profile(run, runner),
        }
    }
}
