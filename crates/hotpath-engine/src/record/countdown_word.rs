//! One countdown of the overhead budget (`countdown.rs`): the calls left until a
//! site's next timed call on one thread and the `k` they were drawn with, in one word.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One call in the countdown word: bits 8.. count calls, bits 0..8 hold the `k` the
/// countdown was drawn with. So "more than one call left" is one compare and an
/// untimed call one subtraction.
const ONE: u64 = 1 << 8;
const SHIFT: u64 = ONE - 1;

/// Calls left until a site's next timed call on one thread, and the `k` it was drawn
/// with, in one word.
pub(crate) struct Countdown(pub(super) AtomicU64);

impl Countdown {
    pub(crate) const fn new() -> Self {
        Self(AtomicU64::new(0))
    }

    /// Whether this call is left untimed: the countdown runs on; at its end the call
    /// is timed and [`redraw`](Self::redraw) must follow.
    #[inline(always)]
    pub(crate) fn skip(&self) -> bool {
        let v = self.0.load(Relaxed);
        let skip = v >= 2 * ONE;
        if skip {
            self.0.store(v - ONE, Relaxed);
        }
        skip
    }

    /// At a timed call: returns the `k` its countdown was drawn with (its weight is
    /// `2^k`) and draws the next countdown at the site's current `shift`.
    pub(crate) fn redraw(&self, shift: u32) -> u32 {
        let drawn = (self.0.load(Relaxed) & SHIFT) as u32;
        self.restart(shift, crate::sampling::draw());
        drawn
    }

    /// A new countdown at `shift` from the random bits `bits`: the collector's, when
    /// it raises a site's rate (a countdown drawn at the old, lower rate would hold
    /// the site there until it ran out: about `2^k` calls). The calls after it are
    /// decided at the new rate, each still independently of the others and of its
    /// duration, so the estimates stay unbiased. Racing the owner's decrement, one of
    /// the two stores wins whole.
    pub(crate) fn restart(&self, shift: u32, bits: u64) {
        self.0.store(word(shift, bits), Relaxed);
    }
}

pub(super) fn word(shift: u32, bits: u64) -> u64 {
    let shift = shift.min(63);
    (geometric(shift, bits) * ONE) | u64::from(shift)
}

/// A draw of the geometric distribution on 1, 2, ... of parameter `2^-shift`: the
/// position of the first success in independent trials of that probability.
/// `bits` are uniform random bits. At most `1e15 + 1`, so it fits the word's 56 bits.
fn geometric(shift: u32, bits: u64) -> u64 {
    if shift == 0 {
        return 1;
    }
    let p = (-f64::from(shift)).exp2();
    // u in (0, 1]: 53 random bits, never 0.
    let u = ((bits >> 11) + 1) as f64 * (-53f64).exp2();
    let n = (u.ln() / (-p).ln_1p()).floor();
    1 + if n.is_finite() && n < 1e15 { n as u64 } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_countdown_times_one_call_in_2_to_the_k_and_names_its_weight() {
        let slot = Countdown::new();
        // A new countdown times its first call, at weight 1, and draws at the given rate.
        assert!(!slot.skip());
        assert_eq!(slot.redraw(3), 0);
        let mut timed = 0u32;
        for _ in 0..80_000 {
            if !slot.skip() {
                timed += 1;
                assert_eq!(slot.redraw(3), 3, "a countdown drawn at k = 3 weighs 2^3");
            }
        }
        // Bin(80,000, 1/8): mean 10,000, sd 94; the bounds are 10 sd away.
        assert!((9_060..10_940).contains(&timed), "{timed} of 80,000 timed at 1/8");
        // A restart at k = 0 times the next call, and it weighs 1.
        slot.restart(0, 12_345);
        assert!(!slot.skip());
        assert_eq!(slot.redraw(0), 0);
        assert!(!slot.skip(), "at k = 0 every call is timed");
        assert_eq!(geometric(0, 0), 1);
    }
}
