//! A user's Criterion benches with `use criterion::...` replaced by
//! `use hotpath::criterion::...`: a known workload per Bencher method, so that the
//! tests can count calls. `work` is measured; each routine calls it a known number of
//! times.

use std::future::Future;
use std::pin::{pin, Pin};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::time::Instant;

use hotpath::criterion::async_executor::AsyncExecutor;
use hotpath::criterion::{black_box, criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};

#[hotpath::measure]
fn work(x: u64) -> u64 {
    (0..black_box(x) % 16 + 16).fold(x, |acc, i| acc.wrapping_mul(31).wrapping_add(i))
}

#[hotpath::measure]
fn prepare() -> Vec<u64> {
    vec![black_box(7); 8]
}

/// Awaits once (the executor polls it twice), then works.
#[hotpath::measure]
async fn work_async(x: u64) -> u64 {
    YieldOnce(false).await;
    work(x)
}

fn sync_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("work");
    group.throughput(Throughput::Elements(2));
    group.bench_function("iter", |b| b.iter(|| work(1).wrapping_add(work(2))));
    group.bench_function("iter_batched", |b| b.iter_batched(prepare, |v| work(v[0]), BatchSize::SmallInput));
    group.bench_function("iter_batched_per_iteration", |b| {
        b.iter_batched(prepare, |v| work(v[1]), BatchSize::PerIteration)
    });
    group.bench_function("iter_batched_ref", |b| {
        b.iter_batched_ref(prepare, |v| work(v.pop().unwrap_or(0)), BatchSize::NumBatches(3))
    });
    group.bench_function("iter_with_setup", |b| b.iter_with_setup(prepare, |v| work(v[2])));
    group.bench_function("iter_with_large_drop", |b| b.iter_with_large_drop(|| vec![work(3); 64]));
    group.bench_function("iter_custom", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for i in 0..iters {
                work(i);
            }
            start.elapsed()
        })
    });
    group.bench_with_input(BenchmarkId::new("input", 7), &7u64, |b, &x| b.iter(|| work(x)));
    group.finish();
    c.bench_function("standalone", |b| b.iter(|| work(5)));
}

fn async_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("async");
    group.bench_function("iter", |b| b.to_async(Block).iter(|| work_async(1)));
    group.bench_function("iter_batched", |b| {
        b.to_async(Block).iter_batched(prepare, |v| work_async(v[0]), BatchSize::SmallInput)
    });
    group.bench_function("iter_custom", |b| {
        b.to_async(Block).iter_custom(|iters| async move {
            let start = Instant::now();
            for i in 0..iters {
                work_async(i).await;
            }
            start.elapsed()
        })
    });
    group.finish();
}

criterion_group!(name = benches; config = Criterion::default().sample_size(10); targets = sync_benches, async_benches);
criterion_main!(benches);

/// A minimal Criterion `AsyncExecutor`: polls on the calling thread, parks while pending.
struct Block;

struct Unpark(std::thread::Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

impl AsyncExecutor for Block {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        let mut future = pin!(future);
        let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
        let mut cx = Context::from_waker(&waker);
        loop {
            match future.as_mut().poll(&mut cx) {
                Poll::Ready(value) => return value,
                Poll::Pending => std::thread::park(),
            }
        }
    }
}

/// Pending on its first poll (waking itself), ready on the second.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if std::mem::replace(&mut self.0, true) {
            return Poll::Ready(());
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}
