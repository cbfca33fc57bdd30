//! The rings stay bounded however many threads come and go and however many events
//! they write: memory is threads × ring, never events.

use std::sync::{Arc, Barrier};

use super::event::{Event, Kind};
use super::ring::SLOT_BYTES;
use super::rings::{footprint, push, read_all, set_capacity, KEEP_RETIRED};

const THREADS: usize = 1000;
const EVENTS: u64 = 100_000;
const RING: usize = 64;

/// `threads` threads alive at once, each writing `events` events.
fn wave(threads: usize, events: u64, tag: u32) {
    let start = Arc::new(Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let start = Arc::clone(&start);
            std::thread::spawn(move || {
                start.wait();
                for i in 0..events {
                    push(Event::what(Kind::Call, tag), i, 1, 0);
                }
            })
        })
        .collect();
    handles.into_iter().for_each(|h| h.join().unwrap());
}

#[test]
fn a_thousand_threads_and_a_hundred_million_events_stay_bounded() {
    set_capacity(RING);
    let (before, _) = footprint();
    // 10^8 events from 1,000 threads alive together.
    wave(THREADS, EVENTS, 1);
    let (rings, bytes) = footprint();
    let ours = rings - before;
    assert!(ours <= THREADS, "one ring per thread: {ours}");
    assert!(bytes <= (before + THREADS) * (RING + 1) * SLOT_BYTES, "{bytes} bytes");
    let (threads, _) = read_all();
    let ours: Vec<_> = threads.iter().filter(|t| t.events.first().is_some_and(|e| e.id == 1)).collect();
    assert!(ours.iter().all(|t| t.events.len() <= RING && !t.alive));
    assert!(ours.iter().all(|t| t.events.last().is_some_and(|e| e.start == EVENTS - 1)), "the newest events are kept");

    // Another 1,000 threads, 100 at a time, take over retired rings instead of adding.
    for _ in 0..10 {
        wave(THREADS / 10, 10, 2);
    }
    let (after, _) = footprint();
    assert!(after <= before + THREADS + KEEP_RETIRED, "{after} rings after 2,000 threads");
}
