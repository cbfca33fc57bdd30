//! The case that breaks hotpath 0.30.3: `measure_block!` around a `sleep().await` in
//! 2,000 tasks on a 4-worker runtime, with allocation profiling on. Every call must
//! finish, be counted, and have its bytes attributed wherever its polls ran.
#![cfg(feature = "hotpath-alloc")]

use std::alloc::System;
use std::time::Duration;

use hotpath::__private::{snapshot, CountingAllocator, MainConfig, MainGuard};

#[global_allocator]
static ALLOCATOR: CountingAllocator<System> = CountingAllocator::new(System);

#[test]
fn two_thousand_sleeping_blocks_on_four_workers() {
    let _session = MainGuard::start(MainConfig::new("alloc_tokio_blocks::test").format("none"));
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(4).enable_all().build().unwrap();
    let total: usize = runtime.block_on(async {
        let tasks: Vec<_> = (0..2000)
            .map(|i| {
                tokio::spawn(async move {
                    hotpath::measure_block!("sleepy-block", {
                        let buffer = vec![0u8; 256];
                        tokio::time::sleep(Duration::from_millis(1 + i % 3)).await;
                        buffer.len()
                    })
                })
            })
            .collect();
        let mut total = 0;
        for t in tasks {
            total += t.await.unwrap();
        }
        total
    });
    drop(runtime);
    assert_eq!(total, 2000 * 256);

    let report = snapshot().unwrap();
    let timing = report.functions_timing.unwrap();
    let block = timing.rows.iter().find(|r| r.name == "sleepy-block").unwrap();
    assert_eq!((block.calls, block.cancelled), (2000, 0));
    let alloc = report.functions_alloc.unwrap();
    let block = alloc.rows.iter().find(|r| r.name == "sleepy-block").unwrap();
    assert_eq!(block.calls, 2000);
    assert!(block.bytes_total >= 2000 * 256, "{block:?}");
    assert!(block.allocs_total >= 2000, "{block:?}");
    for (p, bytes) in &block.bytes_percentiles.0 {
        assert!(*bytes >= 256, "p{p} = {bytes}: every call allocated its buffer");
    }
}
