//! Time sampling (`time_sampling_rate`, `HOTPATH_*_TIME_SAMPLING_RATE`): per
//! instrument, the fraction of calls or operations whose duration is measured.
//! Counts stay exact; durations, percentiles and totals come from the timed ones, and
//! the report says which rates applied and that totals are estimates.
//!
//! The decision is a per-thread xorshift draw against a threshold, so sampling does
//! not alias with periodic traffic the way "every Nth call" would, and costs no shared
//! state. At rate 1 (the default) it is one relaxed load and a compare.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a rate applies to, as `HOTPATH_<NAME>_TIME_SAMPLING_RATE` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sampled {
    /// `#[measure]` functions and blocks.
    Functions,
    /// `mutex!` waits and holds.
    Mutexes,
    /// `rw_lock!` waits and holds.
    RwLocks,
    /// `future!` and `#[future_fn]` polls (decided once per call).
    Futures,
    /// `channel!` send-to-receive latency (decided at the send).
    Channels,
    /// `io!` operations.
    Io,
}

impl Sampled {
    /// Every instrument with a rate.
    pub const ALL: [Sampled; 6] =
        [Self::Functions, Self::Mutexes, Self::RwLocks, Self::Futures, Self::Channels, Self::Io];

    /// `functions`, `mutexes`, ...: the word in variable names and in the report.
    pub fn name(self) -> &'static str {
        match self {
            Self::Functions => "functions",
            Self::Mutexes => "mutexes",
            Self::RwLocks => "rw_locks",
            Self::Futures => "futures",
            Self::Channels => "channels",
            Self::Io => "io",
        }
    }
}

/// Timed when a uniform 64-bit draw is below the threshold; `u64::MAX` times all.
static THRESHOLDS: [AtomicU64; 6] = [const { AtomicU64::new(u64::MAX) }; 6];
/// The configured rates as `f64` bits, for the report.
static RATES: [AtomicU64; 6] = [const { AtomicU64::new(0x3FF0_0000_0000_0000) }; 6];

thread_local! {
    // Const-initialized without a destructor: one TLS load, never fails. The start
    // value serves the draws before the thread's first recorder seeds it.
    static STATE: Cell<u64> = const { Cell::new(0x9E37_79B9_7F4A_7C15) };
    static SEEDED: Cell<bool> = const { Cell::new(false) };
}

/// The base of every thread's seed (`HOTPATH_SAMPLING_SEED`, 0 unless set).
static SEED: AtomicU64 = AtomicU64::new(0);
/// Streams handed out so far: each seeded thread takes the next.
static STREAMS: AtomicU64 = AtomicU64::new(0);

/// Sets the base seed and reseeds the calling thread (the one starting the session,
/// whose recorder may predate it). Threads seeded before keep their streams.
pub fn set_seed(seed: u64) {
    SEED.store(seed, Relaxed);
    SEEDED.with(|s| s.set(false));
    seed_thread();
}

/// Gives this thread its own stream of draws, once: the next stream of the base seed.
/// Without it every thread would draw the same sequence, and threads running the same
/// code would time the same calls: their estimates' errors would add up instead of
/// averaging out, and intervals that sum per-thread variances would be too narrow.
/// Called when a thread attaches its first recorder (`record/registry.rs`).
pub(crate) fn seed_thread() {
    if !SEEDED.with(Cell::get) {
        SEEDED.with(|s| s.set(true));
        STATE.with(|s| s.set(stream(SEED.load(Relaxed), STREAMS.fetch_add(1, Relaxed))));
    }
}

/// The `n`th stream's start under base seed `base`: the two mixed (SplitMix64's
/// finalizer), so neighbouring streams share no structure; never 0, which xorshift
/// cannot leave.
fn stream(base: u64, n: u64) -> u64 {
    let mut z = base.wrapping_add(n.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)).max(1)
}

/// Sets the fraction of `kind`'s calls to time, clamped to 0..=1 (NaN means 1).
pub fn set_rate(kind: Sampled, rate: f64) {
    let rate = if rate.is_nan() { 1.0 } else { rate.clamp(0.0, 1.0) };
    let threshold = if rate >= 1.0 { u64::MAX } else { (rate * 18_446_744_073_709_551_616.0) as u64 };
    THRESHOLDS[kind as usize].store(threshold, Relaxed);
    RATES[kind as usize].store(rate.to_bits(), Relaxed);
    if kind == Sampled::Functions {
        crate::switch::set_function_sampling(rate < 1.0);
    }
}

/// The configured rate of `kind`.
pub fn rate(kind: Sampled) -> f64 {
    f64::from_bits(RATES[kind as usize].load(Relaxed))
}

/// The rates below 1, for the report: `(name, rate)`.
pub fn active() -> Vec<(&'static str, f64)> {
    Sampled::ALL.iter().map(|k| (k.name(), rate(*k))).filter(|(_, r)| *r < 1.0).collect()
}

/// Whether this call of `kind` is to be timed.
#[inline(always)]
pub fn timed(kind: Sampled) -> bool {
    let threshold = THRESHOLDS[kind as usize].load(Relaxed);
    threshold == u64::MAX || (threshold != 0 && draw() < threshold)
}

/// Whether an operation of `kind` at a site whose overhead-budget rate is `2^-shift`
/// (0 without a budget) is timed, and the shift of its weight if so. A static rate
/// below 1 wins over the budget and decides alone, at weight 1 as it always has;
/// otherwise the site's rate does, by an independent draw.
#[inline(always)]
pub(crate) fn timed_at(kind: Sampled, shift: u32) -> Option<u32> {
    let threshold = THRESHOLDS[kind as usize].load(Relaxed);
    if threshold != u64::MAX {
        return (threshold != 0 && draw() < threshold).then_some(0);
    }
    // The top `shift` bits all zero: probability `2^-shift`.
    (shift == 0 || draw() >> (64 - shift.min(63)) == 0).then_some(shift)
}

/// xorshift64* on this thread's state: a uniform 64-bit draw.
#[inline]
pub(crate) fn draw() -> u64 {
    // Two small `with`s rather than one around the whole step: the guard inlines
    // those, where a `with` of the step was left out of line in some builds (19 more
    // instructions per call under a static rate). `LocalKey::set` is out of line.
    let mut x = STATE.with(Cell::get);
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    STATE.with(|s| s.set(x));
    x.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_hit_the_configured_fraction() {
        let threshold = (0.25 * 18_446_744_073_709_551_616.0) as u64;
        let hits = (0..100_000).filter(|_| draw() < threshold).count();
        assert!((23_000..27_000).contains(&hits), "{hits} of 100,000 below a 25% threshold");
    }

    #[test]
    fn a_budget_rate_times_its_fraction() {
        let hits = (0..100_000).filter(|_| timed_at(Sampled::Channels, 2) == Some(2)).count();
        assert!((23_000..27_000).contains(&hits), "{hits} of 100,000 at 2^-2");
        assert!((0..100).all(|_| timed_at(Sampled::Channels, 0) == Some(0)));
    }

    #[test]
    fn each_thread_draws_its_own_stream_and_the_seed_sets_them() {
        let on_thread = || std::thread::spawn(|| (seed_thread(), draw()).1).join().unwrap();
        let (a, b) = (on_thread(), on_thread());
        assert_ne!(a, b, "two threads, two streams");
        assert_ne!(stream(0, 0), stream(0, 1));
        assert_ne!(stream(42, 7), stream(0, 7), "the base seed moves every stream");
        assert_eq!(stream(42, 7), stream(42, 7), "and the same seed gives the same streams");
        assert!((0..1000).all(|n| stream(u64::MAX, n) != 0));
    }

    #[test]
    fn rates_per_instrument() {
        set_rate(Sampled::Mutexes, 0.0);
        assert!(!(0..100).any(|_| timed(Sampled::Mutexes)));
        // A static rate wins over a budget's.
        assert!((0..100).all(|_| timed_at(Sampled::Mutexes, 3).is_none()));
        assert!((0..100).all(|_| timed(Sampled::RwLocks)));
        set_rate(Sampled::Mutexes, f64::NAN);
        assert_eq!(rate(Sampled::Mutexes), 1.0);
        assert!(active().iter().all(|(n, _)| *n != "mutexes"));
    }
}
