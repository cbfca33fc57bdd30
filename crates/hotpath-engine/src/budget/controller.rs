//! The `hp-budget` thread: every [`INTERVAL`] it reads each function and future site's
//! calls, each instrument metric's operations (lock waits and holds, channel
//! latencies, `io!` operations) and the process's CPU time, and sets every site's
//! timing rate (`plan`, one budget shared by all); and the accounting the report
//! shows: what the profiler's timing cost, as a share of the process's CPU time.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};
use std::thread::Thread;
use std::time::{Duration, Instant};

use super::calibrate::{self, Costs};
use super::provisional;
use crate::clock::{process_cpu_ns, thread_cpu_ns};
use crate::record::{self, SiteTotals};
use crate::sync::lock;

/// How often rates are decided while any site is near its share: each decision costs
/// the thread a few tens of µs of CPU (mostly the wake-up itself: 28-36 µs for a bare
/// `nanosleep` on the project's VM), a budget of its own.
const INTERVAL: Duration = Duration::from_millis(100);
/// The longest wait between decisions: while timing everything exactly would cost
/// under a quarter of the budget, each wait doubles up to this, so an idle program
/// pays a wake-up every 1.6 s (its first hot interval is then decided on counts
/// averaged over up to this long, and the next decision comes after [`INTERVAL`]).
const MAX_INTERVAL: Duration = Duration::from_millis(1600);
/// The delay before the thread is created: a program shorter than that runs exact
/// and never creates it; a longer one runs exact only that long (plus the
/// calibration, under 1 ms) before the first decision.
const FIRST: Duration = Duration::from_millis(5);
/// The most a site's shift rises in one decision.
const MAX_STEP: u32 = 4;
/// The wait after a decision that [`MAX_STEP`] held back: a hot site reaches its rate
/// within a few of these, not a few [`INTERVAL`]s (a 10 ns function's ramp from exact
/// to 1/4096 took 300 ms and timed 900k calls, most of the profiler's cost in a 1 s run).
const RAMP: Duration = Duration::from_millis(10);
/// Short waits are rationed, so that a program whose sites heat up again and again does
/// not wake the thread a hundred times a second: up to this many in a row (enough to go
/// from the provisional rate to the lowest, `plan::MAX_SHIFT`), earned back at
/// [`RAMPS_PER_SEC`].
const MAX_RAMPS: f64 = 4.0;
const RAMPS_PER_SEC: f64 = 1.0;

struct State {
    /// The budget, a fraction of the process's CPU time (0.01 for 1%).
    budget: f64,
    /// The process's CPU time at the session's start.
    cpu_start_ns: u64,
    costs: Option<Costs>,
    /// Per site id: calls and timed calls counted at the last tick, smoothed calls
    /// per second.
    last: Vec<(u64, u64)>,
    rates: Vec<f64>,
    /// Operations counted at the last tick and smoothed operations per second, per
    /// metric id and per `io!` entry id.
    metric: Smoothed,
    io: Smoothed,
    last_tick: Option<(Instant, u64)>,
    /// [`OWN_NS`] when the session started.
    own_start: u64,
    /// The wait before the next decision.
    interval: Duration,
    /// Short waits ([`RAMP`]) left, up to [`MAX_RAMPS`].
    ramps: f64,
    /// When the session's first decision is due ([`FIRST`] after its start), until made.
    first_due: Option<Instant>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);
static SPAWNED: AtomicBool = AtomicBool::new(false);
/// The `hp-budget` thread, which a later session wakes for its first decision.
static THREAD: OnceLock<Thread> = OnceLock::new();
/// CPU time the `hp-budget` thread has used deciding (its creation and its one-off
/// calibration are start-up costs, as the session's own start is: not counted).
static OWN_NS: AtomicU64 = AtomicU64::new(0);

/// Starts a session's budget (`None`: every call timed, as without one); `shadow`
/// also times untimed calls into the tests' shadow totals.
pub(crate) fn start(budget: Option<f64>, shadow: bool) {
    for site in record::registered_sites().into_iter().skip(1) {
        site.set_shift(0);
    }
    record::reset_metric_shifts();
    crate::io::reset_shifts();
    let Some(budget) = budget else {
        let _ = provisional::close();
        *lock(&STATE) = None;
        crate::switch::set_budgeted(false, false);
        return;
    };
    let costs = lock(&STATE).as_ref().and_then(|s| s.costs);
    provisional::open(budget, FIRST, costs.map(|c| c.timed_ns));
    *lock(&STATE) = Some(State {
        budget,
        cpu_start_ns: process_cpu_ns(),
        costs,
        last: Vec::new(),
        rates: Vec::new(),
        metric: Smoothed::default(),
        io: Smoothed::default(),
        // The first tick decides from the calls since the start.
        last_tick: Some((Instant::now(), process_cpu_ns())),
        own_start: OWN_NS.load(Relaxed),
        interval: INTERVAL,
        ramps: MAX_RAMPS,
        first_due: Some(Instant::now() + FIRST),
    });
    crate::switch::set_budgeted(true, shadow);
    if SPAWNED.swap(true, Relaxed) {
        // Asleep for up to MAX_INTERVAL: told to decide FIRST from now instead.
        if let Some(thread) = THREAD.get() {
            thread.unpark();
        }
        return;
    }
    crate::spawn::after(
        FIRST,
        std::thread::Builder::new().name("hp-budget".into()).stack_size(128 * 1024),
        || {
            crate::memory::profiler_thread();
            let _ = THREAD.set(std::thread::current());
            // The restarted countdowns' draws: this thread's own stream.
            crate::sampling::seed_thread();
            let costs = calibrate::measure();
            // The start (creation, calibration) is not in the accounting: a one-off,
            // as when the report calibrates for a run too short to have started this.
            let base = thread_cpu_ns();
            if let Some(state) = lock(&STATE).as_mut() {
                state.costs = Some(costs);
            }
            let mut next = Instant::now();
            loop {
                let now = Instant::now();
                let due = first_due().map_or(next, |first| first.min(next));
                if now < due {
                    // Woken early by a new session (or spuriously): the wait is read again.
                    std::thread::park_timeout(due - now);
                    continue;
                }
                let interval = if crate::switch::enabled() { tick() } else { INTERVAL };
                // Made (or moot), unless a session that started meanwhile is due later.
                if let Some(state) = lock(&STATE).as_mut().filter(|s| s.first_due.is_some_and(|d| d <= now)) {
                    state.first_due = None;
                }
                OWN_NS.store(thread_cpu_ns().saturating_sub(base), Relaxed);
                next = Instant::now() + interval;
            }
        },
        |e| {
            // Every call timed, as the warning says, and a later session tries again.
            let _ = provisional::close();
            SPAWNED.store(false, Relaxed);
            crate::diag::warn(&format!("could not start the overhead budget's thread ({e}); every call is timed"));
        },
    );
}

/// When the running session's first decision is due, if it is not made yet.
fn first_due() -> Option<Instant> {
    lock(&STATE).as_ref().and_then(|s| s.first_due)
}

/// One decision: each site's calls per second since the last tick (smoothed), the
/// process's CPU per second, and the rates that fit the budget. Returns the wait
/// before the next.
fn tick() -> Duration {
    let counts = record::call_counts();
    let metric_counts: Vec<u64> = record::metric_counts().into_iter().map(|(n, _)| n).collect();
    let io_counts = crate::io::op_counts();
    let cpu = process_cpu_ns();
    let now = Instant::now();
    let mut guard = lock(&STATE);
    let Some(state) = guard.as_mut() else { return INTERVAL };
    let Some(costs) = state.costs else { return INTERVAL };
    state.last.resize(counts.len(), (0, 0));
    state.rates.resize(counts.len(), 0.0);
    let Some((then, cpu_then)) = state.last_tick.replace((now, cpu)) else { return INTERVAL };
    let secs = now.duration_since(then).as_secs_f64().max(1e-6);
    let sites = record::registered_sites();
    // Calls timed beyond their site's own rate: forced by a parent timed at a rate
    // below 1 (`functions/budgeted.rs`). Their cost is paid before the rates are
    // shared out, and falls with those parents' rates.
    let mut forced = 0.0;
    // Calls of recursive sites, whose untimed calls cost more (they keep the depth).
    let mut recursive = 0.0;
    for (id, &(n, timed)) in counts.iter().enumerate() {
        let (n_then, timed_then) = state.last[id];
        let per_sec = n.saturating_sub(n_then) as f64 / secs;
        let shift = sites.get(id).map_or(0, |s| s.shift());
        let own = per_sec / f64::from(1u32 << shift.min(31));
        forced += (timed.saturating_sub(timed_then) as f64 / secs - own).max(0.0);
        // Smoothed over a few ticks; a site that heats up is followed within one.
        state.rates[id] = if per_sec > state.rates[id] { per_sec } else { 0.5 * state.rates[id] + 0.5 * per_sec };
        state.last[id] = (n, timed);
        if sites.get(id).is_some_and(|s| s.is_recursive()) {
            recursive += state.rates[id];
        }
    }
    state.metric.update(&metric_counts, secs);
    state.io.update(&io_counts, secs);
    let cpu_per_sec = cpu.saturating_sub(cpu_then) as f64 / secs;
    let forced_ns = forced * (costs.timed_ns - costs.untimed_ns).max(0.0);
    let recursive_ns = recursive * (costs.recursive_ns - costs.untimed_ns).max(0.0);
    // What the rates can buy. The thread's own CPU is not taken from it (no rate
    // lowers that; in an idle program it took the whole budget and every site, cold
    // ones too, fell to the lowest rate), and when forced calls and recursive sites'
    // extra counting take it all, a tenth still goes to timing, as when counting
    // alone does (`plan`).
    let whole = state.budget * cpu_per_sec;
    let budget_ns = (whole - forced_ns - recursive_ns).max(0.1 * whole);
    // One water-filling over function sites and metrics alike: a timed operation costs
    // about what a timed call does (two clock reads and a cell's bookkeeping).
    let all: Vec<f64> = state.rates.iter().chain(&state.metric.rates).chain(&state.io.rates).copied().collect();
    // Nothing near its share (every site exact after this decision): wait longer.
    let exact_ns = all.iter().sum::<f64>() * costs.timed_ns;
    state.interval = if exact_ns <= budget_ns / 4.0 { (state.interval * 2).min(MAX_INTERVAL) } else { INTERVAL };
    let interval = state.interval;
    let mut shifts = super::plan::shifts(&all, budget_ns, costs.timed_ns, costs.untimed_ns);
    // At the first decision a site called past the provisional threshold (on one
    // thread, so at least that often in all) may run at the provisional rate: its step
    // starts there, and a lower shift restarts its countdowns.
    let threshold = provisional::close();
    let io_shifts = shifts.split_off(state.rates.len() + state.metric.rates.len());
    let metric_shifts = shifts.split_off(state.rates.len());
    let mut held = apply(metric_shifts, record::metric_shift, record::set_metric_shift);
    held |= apply(io_shifts, crate::io::shift, crate::io::set_shift);
    let mut raised = Vec::new();
    for (id, shift) in shifts.into_iter().enumerate() {
        if let Some(site) = sites.get(id).filter(|_| id > 0) {
            // A rate falls at most 2^MAX_STEP-fold a tick: a transient (a burst of
            // calls, an interval the process spent waiting for a core) must not leave
            // a site's next timed call millions of calls away.
            let from = threshold.filter(|&t| counts[id].0 >= t).map_or(0, |_| provisional::SHIFT);
            let current = site.shift().max(from);
            held |= shift > current + MAX_STEP;
            let shift = shift.min(current + MAX_STEP);
            if shift < current {
                raised.push((id, shift));
            }
            if site.shift() != shift {
                site.set_shift(shift);
            }
        }
    }
    let ramp = take_ramp(&mut state.ramps, secs, held);
    if held {
        // The doubling starts again from the shortest wait once the rates are reached.
        state.interval = INTERVAL;
    }
    drop(guard);
    if !raised.is_empty() {
        record::restart_countdowns(&raised, &mut crate::sampling::draw);
    }
    if ramp {
        RAMP
    } else {
        interval
    }
}

/// Whether the next wait is a [`RAMP`]: a decision held back (`held`) `secs` after the
/// last, with `ramps` short waits left (earned back over time, spent here).
fn take_ramp(ramps: &mut f64, secs: f64, held: bool) -> bool {
    *ramps = (*ramps + secs * RAMPS_PER_SEC).min(MAX_RAMPS);
    let ramp = held && *ramps >= 1.0;
    if ramp {
        *ramps -= 1.0;
    }
    ramp
}

/// Operations per second of a set of ids, smoothed over a few ticks.
#[derive(Default)]
struct Smoothed {
    last: Vec<u64>,
    rates: Vec<f64>,
}

impl Smoothed {
    /// Takes this tick's counts, `secs` after the last: a rate that rises is followed
    /// at once, one that falls halves its distance each tick.
    fn update(&mut self, counts: &[u64], secs: f64) {
        self.last.resize(counts.len(), 0);
        self.rates.resize(counts.len(), 0.0);
        for (id, &n) in counts.iter().enumerate() {
            let per_sec = n.saturating_sub(self.last[id]) as f64 / secs;
            let r = &mut self.rates[id];
            *r = if per_sec > *r { per_sec } else { 0.5 * *r + 0.5 * per_sec };
            self.last[id] = n;
        }
    }
}

/// Sets the shifts of an id space (metrics, `io!` entries), each rising at most
/// [`MAX_STEP`] a tick as function sites' do. Returns whether that held one back.
fn apply(shifts: Vec<u32>, get: fn(usize) -> u32, set: fn(usize, u32)) -> bool {
    let mut held = false;
    for (id, shift) in shifts.into_iter().enumerate() {
        held |= shift > get(id) + MAX_STEP;
        let shift = shift.min(get(id) + MAX_STEP);
        if shift != get(id) {
            set(id, shift);
        }
    }
    held
}

/// The budget's figures for the report.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Overhead {
    /// The configured budget (a fraction).
    pub(crate) budget: f64,
    /// Estimated CPU time of timing and counting (calls and operations × calibrated costs)
    /// plus the `hp-budget` thread's decisions, over the process's CPU time since the
    /// start.
    pub(crate) ratio: f64,
    /// Of that, what counting every call costs, which no rate can lower.
    pub(crate) floor_ratio: f64,
    /// Of that, the thread's decisions, which no rate lowers either.
    pub(crate) thread_ratio: f64,
    /// The calibrated costs of a timed and an untimed call, in ns.
    pub(crate) costs: Costs,
}

/// The overhead of the session so far, from the merged site and metric totals; `None`
/// without a budget. Measures the costs here if the thread has not yet (a short run).
pub(crate) fn overhead(totals: &[SiteTotals], metrics: &[SiteTotals], io_timed: u64) -> Option<Overhead> {
    let (budget, cpu_start, costs, own_start) = {
        let guard = lock(&STATE);
        let state = guard.as_ref()?;
        (state.budget, state.cpu_start_ns, state.costs, state.own_start)
    };
    let costs = costs.unwrap_or_else(|| {
        let costs = crate::memory::untracked(calibrate::measure);
        if let Some(state) = lock(&STATE).as_mut() {
            state.costs = Some(costs);
        }
        costs
    });
    let cpu = process_cpu_ns().saturating_sub(cpu_start).max(1) as f64;
    // A metric's untimed operations are counted only under a rate below 1, which is
    // what the floor is: the timed ones are in `calls`.
    // `io!` operations are counted whatever their rate: only their timing is charged.
    let timed: u64 = totals.iter().chain(metrics).map(|t| t.calls).sum::<u64>() + io_timed;
    let all: u64 = totals.iter().chain(metrics).map(|t| t.calls + t.untimed).sum();
    let sites = record::registered_sites();
    let recursive: u64 = totals.iter().zip(&sites).filter(|(_, s)| s.is_recursive()).map(|(t, _)| t.untimed).sum();
    let floor = all as f64 * costs.untimed_ns + recursive as f64 * (costs.recursive_ns - costs.untimed_ns).max(0.0);
    let timing = timed as f64 * (costs.timed_ns - costs.untimed_ns).max(0.0);
    let own = OWN_NS.load(Relaxed).saturating_sub(own_start) as f64;
    Some(Overhead {
        budget,
        ratio: (floor + timing + own) / cpu,
        floor_ratio: floor / cpu,
        thread_ratio: own / cpu,
        costs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_waits_follow_held_decisions_and_are_rationed() {
        let mut ramps = MAX_RAMPS;
        assert!(!take_ramp(&mut ramps, 0.1, false), "nothing held: the usual wait");
        let row: Vec<bool> = (0..6).map(|_| take_ramp(&mut ramps, 0.01, true)).collect();
        // Four in a row (each 10 ms earns back a hundredth of one), then the usual wait.
        assert_eq!(row, [true, true, true, true, false, false]);
        assert!(take_ramp(&mut ramps, 1.0, true), "earned back within a second");
    }
}
