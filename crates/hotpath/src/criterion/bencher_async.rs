//! `AsyncBencher`: async routines on a Criterion `AsyncExecutor`. Profiling, the N
//! iterations run inside one `block_on`, each future measured from its first poll to
//! `Ready` as a call of `hotpath::criterion::async_routine`.

use std::future::Future;
use std::hint::black_box;

use super::measured::{async_routine as measured, batches};
use super::session::Run;
use super::upstream::{
    self, async_executor::AsyncExecutor, measurement::Measurement, measurement::WallTime, BatchSize,
};

/// Runs a benchmark's async routine; from [`Bencher::to_async`](super::Bencher::to_async).
pub struct AsyncBencher<'a, 'b, A: AsyncExecutor, M: Measurement = WallTime> {
    inner: Inner<'a, 'b, A, M>,
}

enum Inner<'a, 'b, A: AsyncExecutor, M: Measurement> {
    Forward(upstream::AsyncBencher<'b, 'a, A, M>),
    Profile(&'a mut Run, A),
}

impl<'a, 'b, A: AsyncExecutor, M: Measurement> AsyncBencher<'a, 'b, A, M> {
    pub(crate) fn forward(bencher: upstream::AsyncBencher<'b, 'a, A, M>) -> Self {
        Self { inner: Inner::Forward(bencher) }
    }

    pub(crate) fn profile(run: &'a mut Run, runner: A) -> Self {
        Self { inner: Inner::Profile(run, runner) }
    }

    /// Times the future `routine()` returns (Criterion's `iter`); profiling, N calls.
    #[inline(never)]
    pub fn iter<O, R: FnMut() -> F, F: Future<Output = O>>(&mut self, mut routine: R) {
        match &mut self.inner {
            Inner::Forward(b) => b.iter(routine),
            Inner::Profile(run, runner) => run.once(|n| {
                runner.block_on(async {
                    for _ in 0..n {
                        black_box(measured(routine()).await);
                    }
                })
            }),
        }
    }

    /// `routine(iters)` measures itself (Criterion's `iter_custom`); profiling, one call
    /// with N and no per-iteration row.
    #[inline(never)]
    pub fn iter_custom<R: FnMut(u64) -> F, F: Future<Output = M::Value>>(&mut self, mut routine: R) {
        match &mut self.inner {
            Inner::Forward(b) => b.iter_custom(routine),
            Inner::Profile(run, runner) => run.once(|n| drop(black_box(runner.block_on(routine(n))))),
        }
    }

    /// A fresh input per call, set up untimed (Criterion's `iter_with_setup`).
    pub fn iter_with_setup<I, O, S: FnMut() -> I, R: FnMut(I) -> F, F: Future<Output = O>>(
        &mut self,
        setup: S,
        routine: R,
    ) {
        self.iter_batched(setup, routine, BatchSize::PerIteration);
    }

    /// Outputs dropped outside the timed part (Criterion's `iter_with_large_drop`).
    #[inline(never)]
    pub fn iter_with_large_drop<O, R: FnMut() -> F, F: Future<Output = O>>(&mut self, mut routine: R) {
        match &mut self.inner {
            Inner::Forward(b) => b.iter_with_large_drop(routine),
            Inner::Profile(run, runner) => run.once(|n| {
                runner.block_on(async {
                    for _ in 0..n {
                        let output = measured(routine()).await;
                        drop(output);
                    }
                })
            }),
        }
    }

    /// Inputs set up per batch, outputs dropped after it (Criterion's `iter_batched`);
    /// profiling, N calls in batches sized as Criterion sizes them.
    #[inline(never)]
    pub fn iter_batched<I, O, S, R, F>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        match &mut self.inner {
            Inner::Forward(b) => b.iter_batched(setup, routine, size),
            Inner::Profile(run, runner) => run.once(|n| {
                runner.block_on(async {
                    for len in batches(size, n) {
                        let inputs: Vec<I> = (0..len).map(|_| black_box(setup())).collect();
                        let mut outputs = Vec::with_capacity(inputs.len());
                        for input in inputs {
                            outputs.push(measured(routine(input)).await);
                        }
                        drop(black_box(outputs));
                    }
                })
            }),
        }
    }

    /// As [`iter_batched`](Self::iter_batched), the routine taking `&mut` input.
    #[inline(never)]
    pub fn iter_batched_ref<I, O, S, R, F>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> F,
        F: Future<Output = O>,
    {
        match &mut self.inner {
            Inner::Forward(b) => b.iter_batched_ref(setup, routine, size),
            Inner::Profile(run, runner) => run.once(|n| {
                runner.block_on(async {
                    for len in batches(size, n) {
                        let mut inputs: Vec<I> = (0..len).map(|_| black_box(setup())).collect();
                        let mut outputs = Vec::with_capacity(inputs.len());
                        for input in &mut inputs {
                            outputs.push(measured(routine(input)).await);
                        }
                        drop(black_box(outputs));
                        drop(inputs);
                    }
                })
            }),
        }
    }
}
