//! The per-iteration rows of profile mode and Criterion's batch sizes.

use std::future::Future;

use super::upstream::BatchSize;

#[cfg(feature = "hotpath")]
use hotpath_engine::{FnGuard, FnSite, MeasuredFuture, SiteName};

#[cfg(feature = "hotpath")]
static ROUTINE: FnSite = FnSite::new(SiteName::Label("hotpath::criterion::routine"), file!(), line!(), false);
#[cfg(feature = "hotpath")]
static ASYNC_ROUTINE: FnSite =
    FnSite::new(SiteName::Label("hotpath::criterion::async_routine"), file!(), line!(), true);

/// One sync iteration, a call of `hotpath::criterion::routine`.
#[inline(always)]
pub(crate) fn routine<O>(f: impl FnOnce() -> O) -> O {
    #[cfg(feature = "hotpath")]
    let _guard = FnGuard::enter(&ROUTINE);
    f()
}

/// One async iteration, a call of `hotpath::criterion::async_routine` from its first
/// poll to `Ready`.
#[inline(always)]
pub(crate) fn async_routine<F: Future>(future: F) -> impl Future<Output = F::Output> {
    #[cfg(feature = "hotpath")]
    let future = MeasuredFuture::new(&ASYNC_ROUTINE, future);
    future
}

/// Batch lengths adding up to `iterations`, sized as Criterion sizes them (a zero size,
/// which Criterion rejects with a panic, is taken as one).
pub(crate) fn batches(size: BatchSize, iterations: u64) -> impl Iterator<Item = u64> {
    let len = match size {
        BatchSize::SmallInput => iterations.div_ceil(10),
        BatchSize::LargeInput => iterations.div_ceil(1000),
        BatchSize::NumBatches(batches) => iterations.div_ceil(batches.max(1)),
        BatchSize::NumIterations(len) => len,
        _ => 1,
    }
    .max(1);
    let mut left = iterations;
    std::iter::from_fn(move || {
        let this = len.min(left);
        left -= this;
        (this > 0).then_some(this)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_cover_every_iteration_like_criterion() {
        let sizes = |size, n| batches(size, n).collect::<Vec<_>>();
        assert_eq!(sizes(BatchSize::SmallInput, 1000), vec![100; 10]);
        assert_eq!(sizes(BatchSize::SmallInput, 25), vec![3, 3, 3, 3, 3, 3, 3, 3, 1]);
        assert_eq!(sizes(BatchSize::LargeInput, 1000), vec![1; 1000]);
        assert_eq!(sizes(BatchSize::PerIteration, 3), vec![1, 1, 1]);
        assert_eq!(sizes(BatchSize::NumBatches(4), 10), vec![3, 3, 3, 1]);
        assert_eq!(sizes(BatchSize::NumIterations(0), 2), vec![1, 1]);
        assert_eq!(sizes(BatchSize::NumBatches(0), 5), vec![5]);
    }
}
