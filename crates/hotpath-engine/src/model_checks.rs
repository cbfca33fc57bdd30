//! Loom model checks of lock-free structures that live in feature-gated or private
//! modules: their files are compiled here once more, with loom's atomics (see
//! `crate::sync`). Only built for `cargo test` with `--cfg loom`; see `scripts/test-unsafe`.
//!
//! `cpu/ring.rs` carries its own model checks; `channels/ring.rs` is checked below
//! through its crate-public API only.

#[allow(dead_code)]
#[path = "cpu/ring.rs"]
mod cpu_ring;

#[allow(dead_code)]
#[path = "channels/ring.rs"]
mod channel_ring;

use loom::sync::Arc;
use loom::thread;

use channel_ring::{Ring, Stamp};

/// A receive of message `seq` at `now`, as `Instance::on_receive` reads the ring: the
/// send's tick if stamped, nothing if skipped, else a claim (the tick if it landed).
fn receive(ring: &Ring, seq: u64, now: u64) -> Option<u64> {
    match ring.read(seq) {
        Stamp::Sent(tick) => Some(tick),
        Stamp::Skipped => None,
        Stamp::Missing => ring.claim(seq, now),
    }
}

/// A send and its receive race: whichever side comes second pairs the two ticks, at
/// most once, and never with a tick of another message. (Readers are spawned after
/// writers: loom's first schedule runs them later and backtracks from their reads.)
#[test]
fn loom_channel_ring_pairs_a_send_with_its_receive_at_most_once() {
    loom::model(|| {
        let ring = Arc::new(Ring::new(2));
        let sender = {
            let ring = Arc::clone(&ring);
            thread::spawn(move || ring.stamp(0, 40, 0, false))
        };
        let receiver = {
            let ring = Arc::clone(&ring);
            thread::spawn(move || receive(&ring, 0, 50))
        };
        let paired_by_sender = sender.join().unwrap();
        let received = receiver.join().unwrap();
        if let Some(tick) = received {
            assert_eq!(tick, 40, "the receive read its own message's send tick");
        }
        if let Some(tick) = paired_by_sender {
            assert_eq!(tick, 50, "the sender read its own message's receive tick");
        }
        assert!(received.is_none() || paired_by_sender.is_none(), "one latency per message");
    });
}

/// A slot rewritten for a later message while a reader reads it: the reader gets
/// its own message's tick or nothing, never the later message's.
#[test]
fn loom_channel_ring_reads_are_never_torn() {
    loom::model(|| {
        let ring = Arc::new(Ring::new(2));
        ring.stamp(0, 100, 0, false);
        let writer = {
            let ring = Arc::clone(&ring);
            thread::spawn(move || ring.stamp(2, 300, 0, true))
        };
        let reader = {
            let ring = Arc::clone(&ring);
            thread::spawn(move || ring.read(0))
        };
        writer.join().unwrap();
        match reader.join().unwrap() {
            Stamp::Sent(tick) => assert_eq!(tick, 100),
            Stamp::Skipped => panic!("no message was skipped"),
            Stamp::Missing => {}
        }
        assert_eq!(ring.read(2), Stamp::Sent(300));
    });
}

/// An untimed send (`skip`) and its receive race: neither side pairs a tick, and the
/// receive reads "skipped" or claims in vain, never a tick of another message.
#[test]
fn loom_channel_ring_a_skipped_send_pairs_nothing() {
    loom::model(|| {
        let ring = Arc::new(Ring::new(2));
        ring.stamp(0, 100, 0, false);
        let sender = {
            let ring = Arc::clone(&ring);
            thread::spawn(move || ring.skip(2, 1, false))
        };
        let receiver = {
            let ring = Arc::clone(&ring);
            thread::spawn(move || receive(&ring, 2, 50))
        };
        sender.join().unwrap();
        assert_eq!(receiver.join().unwrap(), None, "a skipped message has no latency");
        assert_ne!(ring.read(0), Stamp::Sent(100), "message 0's slot went to message 2");
    });
}
