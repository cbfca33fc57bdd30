//! A cache that grows by 1,000 entries of 1 KiB per round (`grow`), or one filled
//! once and then only read while other allocations come and go (`steady`): twelve
//! rounds, each ended by a snapshot the program takes itself, so the growth flag is
//! judged on snapshot counts and never on time. With `serve` as a second argument it
//! then waits 60 s holding the cache, for the live surfaces (the test kills it).

use std::hint::black_box;

#[inline(never)]
fn cache_entry(round: usize, i: usize) -> Box<[u8]> {
    vec![(round + i) as u8; 1024].into_boxed_slice()
}

#[inline(never)]
fn scratch(i: usize) -> usize {
    black_box(vec![i as u8; 256 + i % 1024]).len()
}

#[hotpath::main]
fn main() {
    let grow = std::env::args().nth(1).as_deref() == Some("grow");
    let mut cache: Vec<Box<[u8]>> = Vec::with_capacity(20_000);
    if !grow {
        cache.extend((0..10_000).map(|i| cache_entry(0, i)));
    }
    let mut sum = 0;
    for round in 0..12 {
        if grow {
            cache.extend((0..1_000).map(|i| cache_entry(round, i)));
        }
        for i in 0..20_000 {
            sum += scratch(i);
        }
        #[cfg(feature = "hotpath")]
        let _ = hotpath::__private::snapshot();
    }
    black_box((sum, cache.len()));
    if std::env::args().any(|a| a == "serve") {
        eprintln!("case_heap_growth: serving");
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
    // Still live in the exit report, so it shows the cache's history too.
    std::mem::forget(cache);
}
