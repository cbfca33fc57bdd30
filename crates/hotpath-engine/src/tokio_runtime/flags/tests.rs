//! The flag rules on made-up histories: each fires at its threshold and not below.

use super::super::history::Point;
use super::*;

const MS: u64 = 1_000_000;

fn spaced(points: usize, every_ms: u64) -> History {
    let mut h = History::new(1);
    for i in 0..points as u64 {
        h.push(Point { at_ns: i * every_ms * MS, ..Point::default() }, [0].into_iter());
    }
    h
}

#[test]
fn window_is_a_second_and_at_least_four_steps() {
    assert_eq!(window_start(&spaced(51, 20)), Some(50));
    assert_eq!(window_start(&spaced(50, 20)), None, "49 steps span 980 ms");
    assert_eq!(window_start(&spaced(60, 20)), Some(50));
    // A late sampler: 250 ms steps give 4-step windows; 1 s steps need 4 steps too.
    assert_eq!(window_start(&spaced(6, 250)), Some(4));
    assert_eq!(window_start(&spaced(4, 1000)), None);
    assert_eq!(window_start(&spaced(5, 1000)), Some(4));
    // 1 ms steps: the full ring (127 steps) is the window.
    assert_eq!(window_start(&spaced(100, 1)), None);
    assert_eq!(window_start(&spaced(300, 1)), Some(CAPACITY - 1));
}

/// A history of `steps + 1` points 20 ms apart with the given per-step busy
/// increments per worker and queue depths.
fn history(busy_per_step: &[u64], depths: &[usize]) -> History {
    let mut h = History::new(busy_per_step.len());
    for (i, &depth) in depths.iter().enumerate() {
        let point = Point { at_ns: i as u64 * 20 * MS, global_queue_depth: depth, ..Point::default() };
        h.push(point, busy_per_step.iter().map(|b| b * i as u64));
    }
    h
}

#[test]
fn imbalance_needs_one_hot_worker_and_idle_others() {
    let mut flags = Flags::default();
    flags.observe_window(&history(&[19 * MS, MS / 2], &[0; 51]));
    let found = flags.imbalance.expect("95% vs 2.5%");
    assert_eq!((found.worker, found.window_ns), (0, 1000 * MS));
    assert!((found.busiest - 0.95).abs() < 1e-9 && (found.others - 0.025).abs() < 1e-9, "{found:?}");
    let text = &flags.report(&[])[0];
    assert_eq!((text.kind.as_str(), text.workers.as_slice()), ("imbalance", &[0][..]));
    assert!(text.message.starts_with("worker 0 was 95.0% busy while the other workers averaged 2.5% over 1.00 s"));

    for (busy, why) in [
        (&[17 * MS, 0, 0][..], "busiest only 85%"),
        (&[20 * MS, 5 * MS, 5 * MS][..], "others average 25%"),
        (&[20 * MS, 20 * MS][..], "balanced"),
        (&[20 * MS][..], "a single worker"),
    ] {
        let mut flags = Flags::default();
        flags.observe_window(&history(busy, &[0; 51]));
        assert!(flags.imbalance.is_none(), "{why}");
    }
}

#[test]
fn a_long_poll_published_at_once_counts_as_fully_busy() {
    // Tokio publishes a 1.5 s poll's busy time in one step: the share is clamped.
    let mut h = History::new(2);
    for i in 0..=50u64 {
        let busy0 = if i == 50 { 1500 * MS } else { 0 };
        h.push(Point { at_ns: i * 20 * MS, ..Point::default() }, [busy0, MS].into_iter());
    }
    let mut flags = Flags::default();
    flags.observe_window(&h);
    assert_eq!(flags.imbalance.map(|i| (i.worker, i.busiest)), Some((0, 1.0)));
}

#[test]
fn queue_growth_needs_a_mostly_rising_queue_and_real_growth() {
    let rising: Vec<usize> = (0..=50).map(|i| i * 40).collect();
    let mut flags = Flags::default();
    flags.observe_window(&history(&[0, 0], &rising));
    let q = flags.queue.expect("rising every step by 40");
    assert_eq!((q.from, q.to, q.rising, q.steps), (0, 2000, 50, 50));
    assert!(flags.report(&[])[0]
        .message
        .starts_with("global queue grew from 0 to 2,000 tasks over 1.00 s, rising in 50 of 50 steps"));

    // Rising in 12 of 50 steps (a sawtooth that drains), or rising but by less than 100.
    let sawtooth: Vec<usize> = (0..=50).map(|i| if i % 4 == 0 { 500 + i } else { 10 }).collect();
    let small: Vec<usize> = (0..=50).collect();
    for depths in [sawtooth, small, vec![0; 51]] {
        let mut flags = Flags::default();
        flags.observe_window(&history(&[0, 0], &depths));
        assert!(flags.queue.is_none(), "{depths:?}");
    }
    // 3 of 4 steps rising is enough (steps of 250 ms).
    let mut h = History::new(1);
    for (i, depth) in [0, 100, 100, 150, 200].into_iter().enumerate() {
        h.push(Point { at_ns: i as u64 * 250 * MS, global_queue_depth: depth, ..Point::default() }, [0].into_iter());
    }
    let mut flags = Flags::default();
    flags.observe_window(&h);
    assert_eq!(flags.queue.map(|q| q.rising), Some(3));
}

#[test]
fn stalls_count_once_per_episode_from_250_ms() {
    let mut s = Stall::default();
    s.observe(0, true, 0);
    s.observe(200 * MS, false, 0);
    assert_eq!((s.count, s.longest_ns), (0, 0));
    s.observe(260 * MS, false, 0);
    s.observe(400 * MS, false, 0);
    assert_eq!((s.count, s.longest_ns, s.longest_at_ns), (1, 400 * MS, 400 * MS));
    s.observe(420 * MS, true, 0);
    s.observe(620 * MS, false, 0);
    assert_eq!(s.count, 1, "200 ms is not a stall");
    s.observe(680 * MS, false, 0);
    assert_eq!((s.count, s.longest_ns), (2, 400 * MS));

    let flag = blocking(&[Stall::default(), s], None).unwrap();
    assert_eq!((flag.kind.as_str(), flag.workers.as_slice(), flag.at_ns), ("blocking", &[1][..], 400 * MS));
    assert!(flag.message.starts_with(
        "worker 1 ran for up to 400.00 ms without publishing progress (2 stalls ≥ 250.00 ms beyond CPU contention): "
    ));
    assert!(blocking(&[Stall::default()], None).is_none());
}

#[test]
fn a_late_sampler_raises_the_stall_threshold() {
    // The sampler woke 60 ms late during this stall: 350 ms is within 250 + 2 × 60.
    let mut s = Stall::default();
    s.observe(0, true, 0);
    s.observe(100 * MS, false, 60 * MS);
    s.observe(350 * MS, false, 0);
    assert_eq!(s.count, 0);
    s.observe(380 * MS, false, 0);
    assert_eq!((s.count, s.longest_ns), (1, 380 * MS));
    // Moving resets the allowance with the stall.
    s.observe(400 * MS, true, 0);
    s.observe(655 * MS, false, 0);
    assert_eq!(s.count, 2);
}

#[test]
fn long_polls_are_inferred_from_busy_time_per_poll() {
    let mut flags = Flags::default();
    flags.observe_polls(0, 1000, 900 * MS, 10, 0);
    flags.observe_polls(0, 0, 900 * MS, 10, 0);
    flags.observe_polls(0, 1, 250 * MS, 10, 80 * MS);
    assert!(flags.long_poll.is_none(), "0.9 ms per poll; no polls; within 100 + 2 × 80 ms");
    flags.observe_polls(1, 2, 600 * MS, 20, 0);
    flags.observe_polls(0, 3, 330 * MS, 30, 0);
    assert_eq!(flags.long_poll, Some(LongPoll { worker: 1, polls: 2, busy_ns: 600 * MS, at_ns: 20 }));
    let flag = &flags.report(&[Stall::default(), Stall::default()])[0];
    assert_eq!((flag.kind.as_str(), flag.workers.as_slice()), ("blocking", &[1][..]));
    assert!(flag.message.starts_with("worker 1 spent 600.00 ms busy on 2 polls in one sampling step"));
}
