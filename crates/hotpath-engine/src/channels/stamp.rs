//! Which messages' latencies are timed, decided once per message at its send: what
//! the send carries to the ring is a *word*, its tick when timed exactly, its tick
//! with the `k` of its weight `2^k` under the overhead budget
//! (`record/weighted_tick.rs`), or [`UNTIMED`]. An untimed message reads no clock on
//! either side: its send marks its slot skipped (`ring.rs`) and its receive finds the
//! mark. Its operation is counted all the same (`metric_timed`), so the budget's
//! estimates stand for every message.
//!
//! The slow-consumer rule (`slow.rs`) samples queue lengths at ticks the operations
//! read anyway; an operation with none at hand reads the clock for it one time in
//! [`SAMPLE_EVERY`].

use crate::clock;
use crate::record::weighted::SHADOW_ONLY;
use crate::record::weighted_tick::{duration, weighted_start, WEIGHTED};
use crate::record::{metric_timed, record_metric, Metric};
use crate::sampling::Sampled;

/// The word of a message whose latency is not timed.
pub(crate) const UNTIMED: u64 = 0;

/// One untimed operation in this many (by its sequence number) reads the clock for
/// the slow-consumer sampler.
pub(crate) const SAMPLE_EVERY: u64 = 16;

/// The word of a message about to be sent (at most one clock read).
#[inline(always)]
pub(crate) fn send_word(latency: Metric) -> u64 {
    match metric_timed(Sampled::Channels, latency) {
        None => UNTIMED,
        // A tick of 0 (a clock not started yet) would read as untimed: one sample lost.
        Some(0) => clock::now(),
        // `SHADOW_ONLY` (255) is capped to the tick's own (`weighted_tick`).
        Some(k) => weighted_start(clock::now(), u64::from(k)),
    }
}

/// The word of a message whose send ended at `tick` after waiting (a blocked send):
/// the same decision, the later tick.
#[inline(always)]
pub(crate) fn retick(word: u64, tick: u64) -> u64 {
    if word == UNTIMED {
        UNTIMED
    } else if word >= WEIGHTED {
        weighted_start(tick, word & K_MASK)
    } else {
        tick
    }
}

/// The tick of an exactly timed message's word (`None` for the others).
#[inline(always)]
pub(crate) fn exact_tick(word: u64) -> Option<u64> {
    (word != UNTIMED && word < WEIGHTED).then_some(word)
}

/// Records the latency of a message sent with `word` and received at `now`.
#[inline(always)]
pub(crate) fn record_latency(latency: Metric, word: u64, now: u64) {
    if word < WEIGHTED {
        record_metric(latency, now.saturating_sub(word), 0);
    } else {
        record_weighted(latency, word, now);
    }
}

/// [`record_latency`] of a message timed at a rate below 1 (out of line: exact
/// timing's path stays as short as it was).
#[cold]
#[inline(never)]
fn record_weighted(latency: Metric, word: u64, now: u64) {
    let (ticks, k) = duration(word, now);
    let shift = if k == K_MASK { SHADOW_ONLY } else { k as u32 };
    record_metric(latency, ticks, shift);
}

/// The mask of a weighted word's `k`, which is also its `SHADOW_ONLY`.
const K_MASK: u64 = crate::record::weighted_tick::SHADOW_ONLY;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_keeps_its_decision_through_a_wait() {
        assert_eq!(retick(UNTIMED, 500), UNTIMED);
        assert_eq!(retick(100, 500), 500);
        assert_eq!(exact_tick(retick(100, 500)), Some(500));
        let weighted = weighted_start(100, 3);
        assert_eq!(duration(retick(weighted, 500), 520), (20, 3));
        assert_eq!(exact_tick(weighted), None);
        assert_eq!(exact_tick(UNTIMED), None);
        assert_eq!(duration(retick(weighted_start(1, 255), 40), 50).1, K_MASK, "shadow stays shadow");
    }
}
