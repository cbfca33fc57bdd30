//! Two profiling sessions one after the other in one process, each leaving 2,000
//! blocks of 4 KiB allocated at a site of its own. Each session's report is written
//! as JSON to the file its argument names (`<dir>/first.json`, `<dir>/second.json`).

use std::hint::black_box;

// The guard installs no allocator (`#[hotpath::main]` does): the one it would install.
#[cfg(feature = "hotpath-alloc")]
#[global_allocator]
static ALLOCATOR: hotpath::__private::CountingAllocator<std::alloc::System> =
    hotpath::__private::CountingAllocator::new(std::alloc::System);

#[inline(never)]
fn first_site() -> Box<[u8]> {
    vec![1u8; 4096].into_boxed_slice()
}

#[inline(never)]
fn second_site() -> Box<[u8]> {
    vec![2u8; 4096].into_boxed_slice()
}

fn session(name: &'static str, path: std::path::PathBuf) -> hotpath::HotpathGuard {
    hotpath::HotpathGuardBuilder::new(name).format(hotpath::Format::Json).output_path(path).build()
}

fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).expect("a directory for the reports"));
    let first = session("heap_sessions::first", dir.join("first.json"));
    let kept: Vec<Box<[u8]>> = (0..2_000).map(|_| first_site()).collect();
    drop(first);
    let second = session("heap_sessions::second", dir.join("second.json"));
    let more: Vec<Box<[u8]>> = (0..2_000).map(|_| second_site()).collect();
    drop(second);
    black_box((&kept, &more));
}
