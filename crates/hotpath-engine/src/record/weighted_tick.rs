//! The start tick an operation carries from its first clock read to its end when its
//! two reads are far apart (an `io!` operation's start and end, `io/sampling.rs`; a
//! channel message's send and receive, `channels/stamp.rs`): its tick when timed
//! exactly, or under the overhead budget the tick with the `k` of its weight `2^k`.

/// The `start` of an operation timed at weight `2^k` > 1 under the budget (or
/// [`SHADOW_ONLY`]): this bit set, the tick shifted left by [`K_BITS`] below it, and
/// `k` in the low bits. An exact operation's `start` is its tick, as without a budget,
/// so its path tests one bit more. A weighted duration is read modulo `2^56` ticks
/// (months), so a wrap of the shifted tick costs nothing.
pub(crate) const WEIGHTED: u64 = 1 << 63;
const K_BITS: u32 = 6;
const K_MASK: u64 = (1 << K_BITS) - 1;

/// The `k` of an operation the budget left untimed under its shadow (tests only):
/// timed anyway, its duration goes to the shadow total alone.
pub(crate) const SHADOW_ONLY: u64 = K_MASK;

/// The `start` of an operation timed at `2^-k` (`k` > 0, or `SHADOW_ONLY`) at `tick`.
#[inline]
pub(crate) fn weighted_start(tick: u64, k: u64) -> u64 {
    WEIGHTED | tick << K_BITS | k.min(K_MASK)
}

/// A weighted operation's duration in ticks (0 if the clock went back) and its `k`.
#[inline]
pub(crate) fn decode(start: u64, end: u64) -> (u64, u64) {
    // Both ticks shifted left by K_BITS + 1, so the difference's sign bit is bit 63.
    let low = K_MASK << 1 | 1;
    let diff = ((end << (K_BITS + 1)).wrapping_sub(start << 1 & !low) as i64) >> (K_BITS + 1);
    (diff.max(0) as u64, start & K_MASK)
}

/// A timed operation's duration and `k` (0: exact), from its `start` and `end`.
#[inline(always)]
pub(crate) fn duration(start: u64, end: u64) -> (u64, u64) {
    if start >= WEIGHTED {
        decode(start, end)
    } else {
        (end.saturating_sub(start), 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weighted_start_gives_back_its_duration_and_k_across_a_wrap() {
        for tick in [5_000u64, 1 << 40, (1 << 57) - 3, (1 << 58) + 11, u64::MAX / 2] {
            let start = weighted_start(tick, 7);
            assert!(start >= WEIGHTED && start as i64 <= 1, "negative as a signed word: never exact");
            assert_eq!(decode(start, tick.wrapping_add(1234)), (1234, 7), "tick {tick}");
            assert_eq!(decode(start, tick.wrapping_sub(3)), (0, 7), "a clock that went back reads 0");
        }
        assert_eq!(decode(weighted_start(9, SHADOW_ONLY + 5), 10).1, SHADOW_ONLY, "k is capped");
        assert_eq!(duration(100, 150), (50, 0), "an exact start is its tick");
        assert_eq!(duration(weighted_start(100, 3), 150), (50, 3));
    }
}
