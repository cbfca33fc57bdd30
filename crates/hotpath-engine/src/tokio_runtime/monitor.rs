//! Everything known about one registered runtime: the readings at registration and
//! now, per-worker maxima and stall tracking, the history ring and the flags.
//! All buffers are sized at registration; a sample only overwrites them.

use std::time::{Duration, Instant};

use tokio::runtime::{Handle, RuntimeMetrics};

use super::flags::{Flags, Stall};
use super::history::{History, Point};
use super::probe::{self, RuntimeReading, WorkerReading};
use super::site::TokioSite;

pub(crate) struct Monitor {
    pub(crate) site: &'static TokioSite,
    pub(crate) name: String,
    pub(crate) flavor: &'static str,
    metrics: RuntimeMetrics,
    pub(crate) registered: Instant,
    /// Readings at registration: reported counters start from here.
    pub(crate) base: RuntimeReading,
    pub(crate) base_workers: Vec<WorkerReading>,
    /// The latest reading and the one before it.
    pub(crate) now: RuntimeReading,
    pub(crate) now_at: Instant,
    pub(crate) workers: Vec<WorkerReading>,
    previous: Vec<WorkerReading>,
    /// Readings on the sampler's schedule, the registration's included; the readings
    /// reports take are left out, so the count follows the interval, not the readers.
    pub(crate) samples: u64,
    pub(crate) max_alive_tasks: usize,
    pub(crate) max_global_queue_depth: usize,
    pub(crate) max_blocking_queue_depth: usize,
    pub(crate) max_local_queue_depth: Vec<usize>,
    pub(crate) stalls: Vec<Stall>,
    pub(crate) history: History,
    pub(crate) flags: Flags,
    interval: Duration,
}

impl Monitor {
    /// Takes the first reading of `handle`'s runtime.
    pub(crate) fn new(site: &'static TokioSite, handle: &Handle, interval: Duration) -> Self {
        let metrics = handle.metrics();
        let count = metrics.num_workers();
        let mut workers = vec![WorkerReading::default(); count];
        let (base, at) = probe::read(&metrics, &mut workers);
        let mut monitor = Self {
            site,
            name: site.name(),
            flavor: probe::flavor(handle),
            metrics,
            registered: at,
            base,
            base_workers: workers.clone(),
            now: base,
            now_at: at,
            previous: workers.clone(),
            workers,
            samples: 1,
            max_alive_tasks: 0,
            max_global_queue_depth: 0,
            max_blocking_queue_depth: 0,
            max_local_queue_depth: vec![0; count],
            stalls: vec![Stall::default(); count],
            history: History::new(count),
            flags: Flags::default(),
            interval,
        };
        monitor.track_maxima();
        monitor.push_point(0.0);
        monitor
    }

    /// The sampling interval is known only once the session has started.
    pub(crate) fn set_interval(&mut self, interval: Duration) {
        self.interval = interval;
    }

    /// Heap bytes this monitor holds (profiler memory accounting).
    pub(crate) fn bytes(&self) -> usize {
        let per_worker = 3 * std::mem::size_of::<WorkerReading>() + 8 + std::mem::size_of::<Stall>();
        self.history.bytes() + self.workers.len() * per_worker + self.name.capacity()
    }

    /// Reads the runtime again and folds the reading in; `delay_ns` is how late the
    /// sampler woke for it, `None` for a report's own reading (not counted in `samples`:
    /// a console polling every second would otherwise double the count). A reading less
    /// than half an interval after the last point (the report's) updates the current
    /// values and stalls but adds no history point, so windows keep their spacing.
    pub(crate) fn sample(&mut self, delay_ns: Option<u64>) {
        std::mem::swap(&mut self.previous, &mut self.workers);
        let (now, at) = probe::read(&self.metrics, &mut self.workers);
        (self.now, self.now_at) = (now, at);
        if delay_ns.is_some() {
            self.samples += 1;
        }
        let delay_ns = delay_ns.unwrap_or(0);
        self.track_maxima();
        let at_ns = self.elapsed_ns(at);
        // Stalls are judged on multi-thread workers only: a current-thread runtime's
        // worker looks unparked and still whenever `block_on` is not running it.
        let multi = self.flavor == "multi_thread";
        for (w, stall) in self.stalls.iter_mut().enumerate() {
            let (new, old) = (&self.workers[w], &self.previous[w]);
            let still = multi && new.active() && now.alive_tasks > 0 && new.progress() == old.progress();
            stall.observe(at_ns, !still, delay_ns);
        }
        if probe::UNSTABLE {
            for (w, (new, old)) in self.workers.iter().zip(&self.previous).enumerate() {
                let (polls, busy) = (new.polls.saturating_sub(old.polls), new.busy_ns.saturating_sub(old.busy_ns));
                self.flags.observe_polls(w, polls, busy, at_ns, delay_ns);
            }
        }
        let last_point_ns = self.history.get(0).map_or(0, |(p, _)| p.at_ns);
        let step_ns = at_ns.saturating_sub(last_point_ns);
        if step_ns >= self.interval.as_nanos() as u64 / 2 {
            let busy = self.step_busy_share(step_ns);
            self.push_point(busy);
            self.flags.observe_window(&self.history);
        }
    }

    pub(crate) fn elapsed_ns(&self, at: Instant) -> u64 {
        at.duration_since(self.registered).as_nanos() as u64
    }

    fn track_maxima(&mut self) {
        self.max_alive_tasks = self.max_alive_tasks.max(self.now.alive_tasks);
        self.max_global_queue_depth = self.max_global_queue_depth.max(self.now.global_queue_depth);
        self.max_blocking_queue_depth = self.max_blocking_queue_depth.max(self.now.blocking_queue_depth);
        for (max, w) in self.max_local_queue_depth.iter_mut().zip(&self.workers) {
            *max = (*max).max(w.local_queue_depth);
        }
    }

    /// Mean busy share of the workers since the previous point, each clamped to 1.
    fn step_busy_share(&self, step_ns: u64) -> f64 {
        let Some((_, last)) = self.history.get(0) else { return 0.0 };
        if self.workers.is_empty() || step_ns == 0 {
            return 0.0;
        }
        let span = step_ns as f64;
        let total: f64 = self
            .workers
            .iter()
            .zip(last)
            .map(|(w, &before)| (w.busy_ns.saturating_sub(before) as f64 / span).min(1.0))
            .sum();
        total / self.workers.len() as f64
    }

    fn push_point(&mut self, busy_share: f64) {
        let point = Point {
            at_ns: self.elapsed_ns(self.now_at),
            global_queue_depth: self.now.global_queue_depth,
            alive_tasks: self.now.alive_tasks,
            busy_share,
        };
        self.history.push(point, self.workers.iter().map(|w| w.busy_ns));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static SITE: TokioSite = TokioSite::new("src/main.rs", 1, Some("test"));

    #[test]
    fn samples_count_the_schedule_not_the_reports() {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let mut monitor = Monitor::new(&SITE, runtime.handle(), Duration::from_secs(1));
        assert_eq!(monitor.samples, 1, "the registration's reading");
        monitor.sample(Some(0));
        monitor.sample(Some(2_000));
        for _ in 0..3 {
            monitor.sample(None);
        }
        assert_eq!(monitor.samples, 3, "two scheduled readings after registration; the reports' three are not samples");
    }
}
