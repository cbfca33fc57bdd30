//! `HOTPATH_ALLOC_MODE=inclusive`: per-call numbers include nested measured calls,
//! and recursion is counted once in the total.
#![cfg(feature = "hotpath-alloc")]

use std::alloc::System;

use hotpath::__private::{snapshot, CountingAllocator, MainConfig, MainGuard};

#[global_allocator]
static ALLOCATOR: CountingAllocator<System> = CountingAllocator::new(System);

#[hotpath::measure]
fn leaf() -> Vec<u8> {
    vec![1u8; 1000]
}

#[hotpath::measure]
fn parent() -> usize {
    let own = vec![0u8; 500];
    own.len() + leaf().len()
}

#[hotpath::measure]
fn deep(n: u32) -> u64 {
    let level = Box::new(u64::from(n));
    if n == 0 {
        *level
    } else {
        *level + deep(n - 1)
    }
}

#[test]
fn inclusive_mode() {
    std::env::set_var("HOTPATH_ALLOC_MODE", "inclusive");
    let _session = MainGuard::start(MainConfig::new("alloc_inclusive::test").format("none").limit(0));
    for _ in 0..4 {
        parent();
    }
    deep(9);
    let section = snapshot().unwrap().functions_alloc.unwrap();
    assert_eq!(section.mode, "inclusive");
    let row = |name: &str| section.rows.iter().find(|r| r.name == format!("alloc_inclusive::{name}")).unwrap().clone();
    let parent = row("parent");
    assert_eq!((parent.bytes_avg, parent.allocs_avg, parent.bytes_total), (1500, 2, 6000));
    let deep = row("deep");
    // Ten levels of 8 bytes: the outermost call holds all 80, inner calls 72, 64, ... 8.
    assert_eq!((deep.calls, deep.bytes_total, deep.bytes_max), (10, 80, 80));
    assert_eq!(deep.bytes_avg, (8..=80).step_by(8).sum::<u64>() / 10);
}
