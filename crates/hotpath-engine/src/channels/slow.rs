//! The slow-consumer rule: a channel's queue that keeps growing for a sustained window.
//!
//! Queue lengths are sampled by the channel's own senders and receivers: an operation
//! that finds the next sample due (one load and compare of a tick) takes it on a cold
//! path, so no thread polls the channels. Samples are at least [`SAMPLE_MS`] apart.
//! The flag is raised when, over the last [`WINDOW`] samples (about a second while
//! messages flow), the length rose from one sample to the next at least [`MIN_RISES`]
//! times and ended at least [`MIN_GROWTH`] messages above where the window began. A
//! bounded channel that stays full stops growing: its senders' blocked time shows the
//! backpressure instead.

/// Minimum time between two samples of one channel.
pub(crate) const SAMPLE_MS: u64 = 100;
/// Samples in the window.
pub(crate) const WINDOW: usize = 10;
/// Rises between consecutive samples needed within the window (of `WINDOW - 1`).
pub(crate) const MIN_RISES: usize = 7;
/// Growth over the window needed, in messages.
pub(crate) const MIN_GROWTH: u64 = 16;

/// The rule in words, for the report.
pub(crate) fn rule() -> String {
    format!(
        "queue rose in >= {MIN_RISES} of {} steps between {WINDOW} samples >= {SAMPLE_MS} ms apart, by >= {MIN_GROWTH} messages",
        WINDOW - 1
    )
}

/// The last [`WINDOW`] queue lengths of one channel.
#[derive(Default)]
pub(crate) struct History {
    samples: [u64; WINDOW],
    /// Samples taken so far (the next one goes to `taken % WINDOW`).
    taken: usize,
}

impl History {
    /// Adds a sample; returns whether the rule holds for the window ending with it.
    pub(crate) fn push(&mut self, queue_len: u64) -> bool {
        self.samples[self.taken % WINDOW] = queue_len;
        self.taken += 1;
        if self.taken < WINDOW {
            return false;
        }
        let at = |i: usize| self.samples[(self.taken + i) % WINDOW]; // oldest first
        let rises = (1..WINDOW).filter(|&i| at(i) > at(i - 1)).count();
        rises >= MIN_RISES && at(WINDOW - 1) >= at(0) + MIN_GROWTH
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(lengths: &[u64]) -> Vec<bool> {
        let mut h = History::default();
        lengths.iter().map(|&l| h.push(l)).collect()
    }

    #[test]
    fn steady_growth_is_flagged_once_the_window_is_full() {
        let flags = run(&(0..12).map(|i| i * 10).collect::<Vec<_>>());
        assert_eq!(flags.iter().position(|f| *f), Some(WINDOW - 1));
        assert!(flags[WINDOW - 1..].iter().all(|f| *f));
    }

    #[test]
    fn a_few_dips_are_tolerated_but_a_plateau_is_not() {
        assert!(run(&[0, 10, 20, 15, 30, 40, 50, 45, 60, 70]).last().copied().unwrap(), "7 rises of 9");
        assert!(!run(&[0, 10, 20, 15, 30, 25, 50, 45, 60, 70]).last().copied().unwrap(), "6 rises of 9");
        assert!(!run(&[100; 10]).last().copied().unwrap(), "full and flat");
        assert!(!run(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]).last().copied().unwrap(), "grew by 9 < MIN_GROWTH");
    }
}
