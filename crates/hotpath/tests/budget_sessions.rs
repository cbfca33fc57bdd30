//! A session with an overhead budget that starts after another has its first
//! decision about 5 ms in, as the first session does: the `hp-budget` thread, which
//! an idle session left waiting up to 1.6 s between decisions, is woken for it. Until
//! that decision a hot site runs at the provisional rate, 1/16 (`budget/provisional.rs`).
#![cfg(feature = "hotpath")]

use std::time::{Duration, Instant};

use hotpath::__private::{snapshot, MainConfig, MainGuard};

#[hotpath::measure]
fn hot(x: u64) -> u64 {
    std::hint::black_box(x.wrapping_mul(0x2545_F491_4F6C_DD1D))
}

fn session() -> MainGuard {
    MainGuard::start(MainConfig::new("budget_sessions::test").format("none").overhead_budget(0.01))
}

#[test]
fn a_later_session_is_decided_soon_after_its_start() {
    // Idle for 1.5 s: the thread's wait doubles from 100 ms, so it decides about 5,
    // 205, 605 and 1,405 ms in, and is then asleep for 1.6 s.
    let first = session();
    std::thread::sleep(Duration::from_millis(1_500));
    drop(first);
    let _second = session();
    let start = Instant::now();
    let mut acc = 0u64;
    while start.elapsed() < Duration::from_millis(300) {
        for i in 0..1_000 {
            acc = hot(acc ^ i);
        }
    }
    std::hint::black_box(acc);
    let report = snapshot().expect("a session runs");
    let rows = report.functions_timing.expect("functions were measured").rows;
    let row = rows.iter().find(|r| r.name == "budget_sessions::hot").expect("hot's row");
    let estimate = row.estimate.as_ref().unwrap_or_else(|| panic!("hot is sampled: {row:#?}"));
    // 1/16 is the provisional rate: a decision came within the 300 ms.
    assert!(estimate.min_rate < 1.0 / 16.0, "{row:#?}");
}
