//! The three things the report flags, each with a precise rule and the numbers that
//! made it fire (docs/ARCHITECTURE.md and README repeat the rules):
//!
//! - **imbalance**: over a window of the last second (at least 4 sampling steps), the busiest
//!   worker was busy ≥ 90% of the time while the other workers averaged ≤ 20%.
//! - **global_queue_growth**: over the same window, the global queue depth rose in
//!   ≥ 75% of the sampling steps and ended ≥ 100 tasks above where it started.
//! - **blocking**: a worker of a multi-thread runtime stayed unparked for ≥ 250 ms
//!   without publishing any progress while tasks were alive (a stall), or, with
//!   `tokio_unstable`, a sampling step in which a worker's busy time per poll was
//!   ≥ 100 ms, which means at least one poll took that long.
//!
//! On a machine short of CPU a worker also goes quiet while it waits for a core, and
//! a batch of 61 short polls can span several scheduling rounds: hence the stall
//! threshold of 250 ms, above what a starved but healthy worker showed on a
//! two-core machine at load 11 (up to 234 ms in debug builds). Both thresholds also
//! grow by twice the worst delay the sampler itself saw waking up during the stall
//! or step, for heavier contention still.
//!
//! Tokio publishes a worker's counters when it parks and at maintenance, every 61
//! scheduler ticks. A worker whose counters stand still while it is unparked has run
//! fewer than 61 polls since: one of them is long, or all are slow. The stall length
//! measured is a lower bound (time since the sample that last saw it move).

use std::time::Duration;

use hotpath_model::{format_count, format_duration_ns, TokioFlag};

use super::history::{History, CAPACITY};

/// Length of the window imbalance and queue growth are judged over.
pub(crate) const WINDOW: Duration = Duration::from_secs(1);
/// Fewest sampling steps in a window, so a long interval still needs a trend.
pub(crate) const MIN_WINDOW_STEPS: usize = 4;
pub(crate) const IMBALANCE_BUSIEST: f64 = 0.90;
pub(crate) const IMBALANCE_OTHERS: f64 = 0.20;
pub(crate) const QUEUE_RISING_SHARE: f64 = 0.75;
pub(crate) const QUEUE_MIN_GROWTH: usize = 100;
/// A poll this long starves every task queued behind it.
pub(crate) const LONG_POLL_NS: u64 = 100_000_000;
/// A worker this long without publishing progress is inside a long poll (see above).
pub(crate) const STALL_NS: u64 = 250_000_000;
/// How many of the sampler's own wake-up delays a stall may contain before it counts:
/// a batch of short polls fits in one or two scheduling rounds.
pub(crate) const DELAY_ALLOWANCE: u64 = 2;

/// `base` raised for a sampler that woke up to `delay_ns` late.
pub(crate) fn with_delay(base: u64, delay_ns: u64) -> u64 {
    base.saturating_add(DELAY_ALLOWANCE.saturating_mul(delay_ns))
}

/// How many steps back the window ending at the newest point starts: the most recent
/// point at least [`WINDOW`] and [`MIN_WINDOW_STEPS`] steps older, or the oldest point
/// of a full ring (very short intervals). Judged by timestamps, so a sampler that fell
/// behind (a loaded machine) still gets whole windows.
pub(crate) fn window_start(history: &History) -> Option<usize> {
    let newest = history.get(0)?.0.at_ns;
    let window = WINDOW.as_nanos() as u64;
    let mut age = MIN_WINDOW_STEPS;
    while let Some((point, _)) = history.get(age) {
        if newest.saturating_sub(point.at_ns) >= window {
            return Some(age);
        }
        age += 1;
    }
    (age == CAPACITY && history.get(MIN_WINDOW_STEPS).is_some()).then_some(CAPACITY - 1)
}

/// The strongest imbalance seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Imbalance {
    pub(crate) worker: usize,
    pub(crate) busiest: f64,
    pub(crate) others: f64,
    pub(crate) window_ns: u64,
    pub(crate) at_ns: u64,
}

/// The largest queue growth seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct QueueGrowth {
    pub(crate) from: usize,
    pub(crate) to: usize,
    pub(crate) rising: usize,
    pub(crate) steps: usize,
    pub(crate) window_ns: u64,
    pub(crate) at_ns: u64,
}

/// The longest poll inferred from a step's busy time per poll (`tokio_unstable`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LongPoll {
    pub(crate) worker: usize,
    pub(crate) polls: u64,
    pub(crate) busy_ns: u64,
    pub(crate) at_ns: u64,
}

/// Stall tracking of one worker.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stall {
    /// When the worker was last seen progressing or parked, ns after registration.
    since_ns: u64,
    /// Worst sampler wake-up delay since then.
    delay_ns: u64,
    /// The current stall was already counted.
    counted: bool,
    pub(crate) longest_ns: u64,
    pub(crate) count: u64,
    /// When `longest_ns` was observed.
    pub(crate) longest_at_ns: u64,
}

impl Stall {
    /// Folds one sample in: `moving` is false when the worker is unparked, tasks are
    /// alive and none of its counters changed since the previous sample; `delay_ns` is
    /// how late the sampler woke for this sample.
    pub(crate) fn observe(&mut self, at_ns: u64, moving: bool, delay_ns: u64) {
        if moving {
            (self.since_ns, self.delay_ns, self.counted) = (at_ns, 0, false);
            return;
        }
        self.delay_ns = self.delay_ns.max(delay_ns);
        let stalled = at_ns.saturating_sub(self.since_ns);
        if stalled >= with_delay(STALL_NS, self.delay_ns) {
            if !self.counted {
                self.count += 1;
                self.counted = true;
            }
            if stalled > self.longest_ns {
                (self.longest_ns, self.longest_at_ns) = (stalled, at_ns);
            }
        }
    }
}

/// What the detectors found so far for one runtime.
#[derive(Clone, Debug, Default)]
pub(crate) struct Flags {
    pub(crate) imbalance: Option<Imbalance>,
    pub(crate) imbalance_windows: u64,
    pub(crate) queue: Option<QueueGrowth>,
    pub(crate) queue_windows: u64,
    pub(crate) long_poll: Option<LongPoll>,
}

impl Flags {
    /// Judges the window ending at the newest point of `history`, if it is long enough.
    pub(crate) fn observe_window(&mut self, history: &History) {
        let Some(steps) = window_start(history) else { return };
        let (Some((new, new_busy)), Some((old, old_busy))) = (history.get(0), history.get(steps)) else { return };
        let window_ns = new.at_ns.saturating_sub(old.at_ns);
        if window_ns == 0 {
            return;
        }
        if let Some(found) = imbalance(new_busy, old_busy, window_ns) {
            self.imbalance_windows += 1;
            let found = Imbalance { window_ns, at_ns: new.at_ns, ..found };
            let margin = |i: &Imbalance| i.busiest - i.others;
            if self.imbalance.as_ref().is_none_or(|best| margin(&found) > margin(best)) {
                self.imbalance = Some(found);
            }
        }
        let depths = (0..=steps).rev().filter_map(|age| history.get(age).map(|(p, _)| p.global_queue_depth));
        if let Some(found) = queue_growth(depths) {
            self.queue_windows += 1;
            let found = QueueGrowth { window_ns, at_ns: new.at_ns, ..found };
            if self.queue.as_ref().is_none_or(|best| found.to - found.from > best.to - best.from) {
                self.queue = Some(found);
            }
        }
    }

    /// One worker's polls and busy time over a sampling step (`tokio_unstable`), the
    /// sampler having woken `delay_ns` late for it.
    pub(crate) fn observe_polls(&mut self, worker: usize, polls: u64, busy_ns: u64, at_ns: u64, delay_ns: u64) {
        if polls == 0 || busy_ns / polls < with_delay(LONG_POLL_NS, delay_ns) {
            return;
        }
        let per_poll = |p: &LongPoll| p.busy_ns / p.polls;
        let found = LongPoll { worker, polls, busy_ns, at_ns };
        if self.long_poll.as_ref().is_none_or(|best| per_poll(&found) > per_poll(best)) {
            self.long_poll = Some(found);
        }
    }

    /// The flags to report, with their reasons; `stalls` holds every worker's tracking.
    pub(crate) fn report(&self, stalls: &[Stall]) -> Vec<TokioFlag> {
        let mut out = Vec::new();
        if let Some(i) = &self.imbalance {
            let message = format!(
                "worker {} was {:.1}% busy while the other workers averaged {:.1}% over {} (rule: busiest ≥ {:.0}%, others ≤ {:.0}%; held in {} windows): one task is hogging its worker or the work does not spread",
                i.worker,
                i.busiest * 100.0,
                i.others * 100.0,
                format_duration_ns(i.window_ns),
                IMBALANCE_BUSIEST * 100.0,
                IMBALANCE_OTHERS * 100.0,
                self.imbalance_windows,
            );
            out.push(flag("imbalance", vec![i.worker], i.at_ns, message));
        }
        if let Some(q) = &self.queue {
            let message = format!(
                "global queue grew from {} to {} tasks over {}, rising in {} of {} steps (rule: rising in ≥ {:.0}% of a window's steps and +{} tasks; held in {} windows): tasks are spawned or woken from outside the workers faster than they are run",
                format_count(q.from as u64),
                format_count(q.to as u64),
                format_duration_ns(q.window_ns),
                q.rising,
                q.steps,
                QUEUE_RISING_SHARE * 100.0,
                QUEUE_MIN_GROWTH,
                self.queue_windows,
            );
            out.push(flag("global_queue_growth", Vec::new(), q.at_ns, message));
        }
        if let Some(f) = blocking(stalls, self.long_poll.as_ref()) {
            out.push(f);
        }
        out
    }
}

/// The busiest worker and the mean of the others over a window, when they match the rule.
fn imbalance(new: &[u64], old: &[u64], window_ns: u64) -> Option<Imbalance> {
    if new.len() < 2 {
        return None;
    }
    let share = |w: usize| (new[w].saturating_sub(old[w]) as f64 / window_ns as f64).min(1.0);
    let worker = (0..new.len()).max_by(|&a, &b| share(a).total_cmp(&share(b)))?;
    let busiest = share(worker);
    let others = (0..new.len()).filter(|&w| w != worker).map(share).sum::<f64>() / (new.len() - 1) as f64;
    (busiest >= IMBALANCE_BUSIEST && others <= IMBALANCE_OTHERS).then_some(Imbalance {
        worker,
        busiest,
        others,
        window_ns,
        at_ns: 0,
    })
}

/// Growth of the depths (oldest first) when they match the rule.
fn queue_growth(depths: impl Iterator<Item = usize>) -> Option<QueueGrowth> {
    let depths: Vec<usize> = depths.collect();
    let (&from, &to) = (depths.first()?, depths.last()?);
    let steps = depths.len() - 1;
    let rising = depths.windows(2).filter(|w| w[1] > w[0]).count();
    let grew = to >= from + QUEUE_MIN_GROWTH;
    (steps > 0 && grew && rising as f64 >= QUEUE_RISING_SHARE * steps as f64).then_some(QueueGrowth {
        from,
        to,
        rising,
        steps,
        window_ns: 0,
        at_ns: 0,
    })
}

fn blocking(stalls: &[Stall], long_poll: Option<&LongPoll>) -> Option<TokioFlag> {
    let stalled: Vec<usize> = (0..stalls.len()).filter(|&w| stalls[w].count > 0).collect();
    let mut workers = stalled.clone();
    let mut reasons = Vec::new();
    let mut at_ns = 0;
    if let Some(worst) = stalled.iter().map(|&w| &stalls[w]).max_by_key(|s| s.longest_ns) {
        let count: u64 = stalled.iter().map(|&w| stalls[w].count).sum();
        let who = match stalled.as_slice() {
            [one] => format!("worker {one}"),
            many => format!("workers {}", many.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")),
        };
        reasons.push(format!(
            "{who} ran for up to {} without publishing progress ({count} stall{} ≥ {} beyond CPU contention)",
            format_duration_ns(worst.longest_ns),
            if count == 1 { "" } else { "s" },
            format_duration_ns(STALL_NS)
        ));
        at_ns = worst.longest_at_ns;
    }
    if let Some(p) = long_poll {
        reasons.push(format!(
            "worker {} spent {} busy on {} poll{} in one sampling step (≥ {} per poll)",
            p.worker,
            format_duration_ns(p.busy_ns),
            p.polls,
            if p.polls == 1 { "" } else { "s" },
            format_duration_ns(LONG_POLL_NS)
        ));
        if !workers.contains(&p.worker) {
            workers.push(p.worker);
            workers.sort_unstable();
        }
        at_ns = at_ns.max(p.at_ns);
    }
    if reasons.is_empty() {
        return None;
    }
    let message = format!(
        "{}: a blocking call (std::thread::sleep, synchronous I/O, a contended std lock) or a long computation inside async code holds the worker; move it to spawn_blocking or block_in_place",
        reasons.join("; ")
    );
    Some(flag("blocking", workers, at_ns, message))
}

fn flag(kind: &str, workers: Vec<usize>, at_ns: u64, message: String) -> TokioFlag {
    let mut f = TokioFlag::default();
    f.kind = kind.into();
    f.workers = workers;
    f.at_ns = at_ns;
    f.message = message;
    f
}

#[cfg(test)]
mod tests;
