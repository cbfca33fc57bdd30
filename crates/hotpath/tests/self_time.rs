//! Inclusive and self time of nested, recursive and panicking measured calls obey
//! exact accounting identities (up to tick→ns rounding), whatever the timings.
#![cfg(feature = "hotpath")]

use hotpath::__private::{snapshot, MainConfig, MainGuard};
use hotpath_model::FunctionTiming;

fn spin(n: u64) -> u64 {
    (0..n).fold(1u64, |a, b| std::hint::black_box(a.wrapping_mul(b | 1)))
}

#[hotpath::measure]
fn child() -> u64 {
    spin(2_000)
}

#[hotpath::measure]
fn parent() -> u64 {
    child().wrapping_add(spin(1_000)).wrapping_add(child())
}

#[hotpath::measure]
fn recurse(depth: u32) -> u64 {
    if depth == 0 {
        spin(500)
    } else {
        spin(100).wrapping_add(recurse(depth - 1))
    }
}

#[hotpath::measure]
fn explodes() {
    spin(500);
    panic!("inside a measured function");
}

#[hotpath::measure]
fn survives_panic() {
    let _ = std::panic::catch_unwind(explodes);
    spin(500);
}

fn rows() -> Vec<FunctionTiming> {
    snapshot().unwrap().functions_timing.unwrap().rows
}

fn find<'a>(rows: &'a [FunctionTiming], name: &str) -> &'a FunctionTiming {
    rows.iter().find(|r| r.name == format!("self_time::{name}")).unwrap_or_else(|| panic!("{name}: {rows:#?}"))
}

/// Equality up to the rounding of each of `n` tick→ns conversions.
fn close(a: u64, b: u64, n: u64) -> bool {
    a.abs_diff(b) <= n
}

#[test]
fn nested_recursive_and_panicking_calls() {
    let _session = MainGuard::start(MainConfig::new("self_time::test").format("none").limit(0));
    for _ in 0..100 {
        parent();
    }
    for _ in 0..10 {
        recurse(9);
    }
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for _ in 0..5 {
        survives_panic();
    }
    std::panic::set_hook(hook);
    let rows = rows();
    let (parent, child) = (find(&rows, "parent"), find(&rows, "child"));
    assert_eq!((parent.calls, child.calls), (100, 200));
    // Parent's inclusive minus exclusive time is exactly the time in its children.
    assert!(close(parent.total_ns - parent.self_ns, child.total_ns, 3), "{parent:?} {child:?}");
    assert_eq!(child.self_ns, child.total_ns);
    assert!(parent.min_ns <= parent.percentiles_ns.get(50.0).unwrap());
    assert!(parent.percentiles_ns.get(99.0).unwrap() <= parent.max_ns);

    // Recursion: every level is a call, Total counts only outermost calls, and the
    // self times of all levels add up to that total.
    let recurse = find(&rows, "recurse");
    assert_eq!(recurse.calls, 100);
    assert!(close(recurse.self_ns, recurse.total_ns, 2), "{recurse:?}");
    assert!(recurse.avg_ns * recurse.calls > recurse.total_ns, "Avg includes inner levels");

    // A panic unwinding through a measured call still ends its frame.
    let (outer, inner) = (find(&rows, "survives_panic"), find(&rows, "explodes"));
    assert_eq!((outer.calls, inner.calls), (5, 5));
    assert!(close(outer.total_ns - outer.self_ns, inner.total_ns, 3), "{outer:?} {inner:?}");
}
