//! With `hotpath-alloc`, the futures section gives each `future!` call the allocations of
//! all its polls, wherever they ran.
#![cfg(feature = "hotpath-alloc")]

use std::alloc::System;
use std::time::Duration;

use hotpath::__private::{snapshot, CountingAllocator, MainConfig, MainGuard};

#[global_allocator]
static ALLOCATOR: CountingAllocator<System> = CountingAllocator::new(System);

#[test]
fn future_calls_carry_their_allocations() {
    let _session = MainGuard::start(MainConfig::new("alloc_futures::test").format("none"));
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let total: usize = runtime.block_on(async {
        let tasks: Vec<_> = (0..50)
            .map(|_| {
                tokio::spawn(hotpath::future!(
                    async {
                        let before = vec![1u8; 1000];
                        tokio::time::sleep(Duration::from_millis(1)).await;
                        let after = vec![2u8; 3000];
                        before.len() + after.len()
                    },
                    label = "two-buffers"
                ))
            })
            .collect();
        let mut total = 0;
        for t in tasks {
            total += t.await.unwrap();
        }
        total
    });
    drop(runtime);
    assert_eq!(total, 50 * 4000);
    let rows = snapshot().unwrap().futures.unwrap().rows;
    let row = rows.iter().find(|r| r.name == "two-buffers").unwrap();
    assert_eq!(row.calls, 50);
    let bytes = row.alloc_bytes_avg.unwrap();
    assert!((4000..6000).contains(&bytes), "both polls' buffers, about 4000 bytes: {bytes}");
    assert!(row.allocs_avg.unwrap() >= 2, "{row:?}");
}
