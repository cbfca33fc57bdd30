//! Async functions on a multi-thread runtime: frames are per poll, so tasks that
//! migrate between workers are counted once each and nested accounting stays exact.
#![cfg(feature = "hotpath")]

use std::time::Duration;

use hotpath::__private::{snapshot, MainConfig, MainGuard};

#[hotpath::measure]
fn nested_work() -> u64 {
    (0..200u64).map(std::hint::black_box).sum()
}

#[hotpath::measure]
async fn hops(i: u64) -> u64 {
    let mut acc = i;
    for _ in 0..3 {
        acc += nested_work();
        tokio::task::yield_now().await;
    }
    acc + nested_work()
}

#[hotpath::measure]
async fn sleeps() {
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[hotpath::measure]
async fn never_finishes() {
    std::future::pending::<()>().await;
}

#[test]
fn tasks_across_workers() {
    let _session = MainGuard::start(MainConfig::new("async_workers::test").format("none").limit(0));
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(4).enable_all().build().unwrap();
    runtime.block_on(async {
        let tasks: Vec<_> = (0..500).map(|i| tokio::spawn(hops(i))).collect();
        for t in tasks {
            t.await.unwrap();
        }
        tokio::spawn(sleeps()).await.unwrap();
        // Cancelled: dropped by the timeout before completing.
        let _ = tokio::time::timeout(Duration::from_millis(1), never_finishes()).await;
    });
    drop(runtime);

    let rows = snapshot().unwrap().functions_timing.unwrap().rows;
    let find = |name: &str| rows.iter().find(|r| r.name == format!("async_workers::{name}")).unwrap().clone();
    let (hops, nested) = (find("hops"), find("nested_work"));
    assert_eq!(hops.calls, 500);
    assert!(hops.is_async);
    assert_eq!(hops.polls, 2000, "4 polls per call: 3 yields then ready");
    assert_eq!(nested.calls, 2000);
    // Time inside polls minus self time is exactly the nested measured time, even
    // though polls of one call ran on different workers.
    assert!(hops.busy_ns.abs_diff(hops.self_ns + nested.total_ns) <= 3, "{hops:?} {nested:?}");
    assert!(hops.busy_ns <= hops.total_ns, "polling time is part of the wall time");

    let sleeps = find("sleeps");
    assert_eq!((sleeps.calls, sleeps.polls), (1, 5));
    assert!(sleeps.avg_ns >= 20_000_000, "wall time spans the awaits: {sleeps:?}");
    assert_eq!(sleeps.self_ns, sleeps.busy_ns, "nothing measured nested");

    let pending = find("never_finishes");
    assert_eq!((pending.calls, pending.cancelled), (0, 1));
}
