//! Builds the `tokio_runtime` section from the monitors.

use hotpath_model::{TokioPoint, TokioRuntime, TokioRuntimes, TokioWorker};

use super::monitor::Monitor;
use super::probe::UNSTABLE;
use super::sampler::{sample_now, with_monitors};
use crate::options::Options;

/// Every registered runtime whose name passes the focus filter, after one fresh
/// sample; `None` when no runtime was registered.
pub(crate) fn section(config: &Options) -> Option<TokioRuntimes> {
    sample_now();
    with_monitors(|monitors, interval| {
        if monitors.is_empty() {
            return None;
        }
        let mut section = TokioRuntimes::default();
        section.interval_ms = interval.as_millis() as u64;
        section.tokio_unstable = UNSTABLE;
        section.total_runtimes = monitors.len();
        section.runtimes = monitors
            .iter()
            .filter(|m| config.focus.as_ref().is_none_or(|f| f.matches(&m.name)))
            .map(|m| runtime(m, config.limit))
            .collect();
        Some(section)
    })
}

fn runtime(m: &Monitor, limit: usize) -> TokioRuntime {
    let (now, base) = (&m.now, &m.base);
    let unstable = |v: u64| UNSTABLE.then_some(v);
    let unstable_count = |v: usize| UNSTABLE.then_some(v);
    let monitored_ns = m.elapsed_ns(m.now_at);
    let mut rt = TokioRuntime::default();
    rt.name = m.name.clone();
    rt.file = m.site.file().to_string();
    rt.line = m.site.line();
    rt.flavor = m.flavor.to_string();
    rt.monitored_ns = monitored_ns;
    rt.samples = m.samples;
    rt.num_workers = m.workers.len();
    rt.alive_tasks = now.alive_tasks;
    rt.max_alive_tasks = m.max_alive_tasks;
    rt.global_queue_depth = now.global_queue_depth;
    rt.max_global_queue_depth = m.max_global_queue_depth;
    rt.blocking_threads = unstable_count(now.blocking_threads);
    rt.idle_blocking_threads = unstable_count(now.idle_blocking_threads);
    rt.blocking_queue_depth = unstable_count(now.blocking_queue_depth);
    rt.max_blocking_queue_depth = unstable_count(m.max_blocking_queue_depth);
    rt.spawned_tasks = unstable(now.spawned_tasks.saturating_sub(base.spawned_tasks));
    rt.remote_schedules = unstable(now.remote_schedules.saturating_sub(base.remote_schedules));
    rt.budget_forced_yields = unstable(now.budget_forced_yields.saturating_sub(base.budget_forced_yields));
    rt.flags = m.flags.report(&m.stalls);
    let mut workers: Vec<TokioWorker> = (0..m.workers.len()).map(|i| worker(m, i, monitored_ns)).collect();
    if limit > 0 && workers.len() > limit {
        workers.sort_by(|a, b| b.busy_ns.cmp(&a.busy_ns).then(a.index.cmp(&b.index)));
        workers.truncate(limit);
        workers.sort_by_key(|w| w.index);
    }
    rt.workers = workers;
    rt.history = m
        .history
        .points()
        .map(|p| {
            let mut point = TokioPoint::default();
            point.at_ms = p.at_ns / 1_000_000;
            point.global_queue_depth = p.global_queue_depth;
            point.alive_tasks = p.alive_tasks;
            point.busy_percent = round1(p.busy_share * 100.0);
            point
        })
        .collect();
    rt
}

fn worker(m: &Monitor, index: usize, monitored_ns: u64) -> TokioWorker {
    let (now, base, stall) = (&m.workers[index], &m.base_workers[index], &m.stalls[index]);
    let unstable = |v: u64| UNSTABLE.then_some(v);
    let mut w = TokioWorker::default();
    w.index = index;
    w.busy_ns = now.busy_ns.saturating_sub(base.busy_ns);
    w.busy_percent =
        if monitored_ns == 0 { 0.0 } else { round1((w.busy_ns as f64 * 100.0 / monitored_ns as f64).min(100.0)) };
    w.parks = now.parks.saturating_sub(base.parks);
    w.polls = unstable(now.polls.saturating_sub(base.polls));
    w.steals = unstable(now.steals.saturating_sub(base.steals));
    w.steal_operations = unstable(now.steal_operations.saturating_sub(base.steal_operations));
    w.overflows = unstable(now.overflows.saturating_sub(base.overflows));
    w.local_queue_depth = UNSTABLE.then_some(now.local_queue_depth);
    w.max_local_queue_depth = UNSTABLE.then_some(m.max_local_queue_depth[index]);
    w.mean_poll_ns = unstable(now.mean_poll_ns);
    w.longest_stall_ns = stall.longest_ns;
    w.stalls = stall.count;
    w
}

/// One decimal is all a percentage in a report needs, and it keeps JSON diffs stable.
fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
