//! Builds the `heap` section from the live table: samples grouped by named stack,
//! estimates with their intervals, the allow-list applied, and each stack's history
//! of estimated live bytes over the snapshots (growth).
//!
//! Snapshots are taken at the session's own cadence, `HOTPATH_HEAP_SNAPSHOT_MS`, by
//! the `hp-heap` thread, and once at the session's end; a report (a live request
//! included) reads the history and never adds to it, so however often a client polls,
//! the growth flag compares the same spacing of time.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use hotpath_model::sections::heap::{Heap, HeapFunction, HeapStack};

use super::estimate::Estimate;
use super::stacks::{Frame, Symbols, SHOWN};
use super::{sampler, table, totals};
use crate::options::Options;
use crate::sync::lock;

/// Snapshots a stack's history keeps, and the growth flag looks back over.
pub(crate) const GROWTH_WINDOW: usize = 8;

#[derive(Default)]
struct State {
    symbols: Symbols,
    /// Estimated live bytes per stack name at the last snapshots, oldest first.
    history: HashMap<String, VecDeque<u64>>,
    /// Snapshots taken in this session.
    snapshots: u64,
    /// The session's allow-list, for the snapshots of the `hp-heap` thread.
    ignore: Vec<String>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);
/// Profile files written at the end of the session.
static WRITTEN: Mutex<Vec<String>> = Mutex::new(Vec::new());
/// The session's snapshot interval, ms, read by the `hp-heap` thread before each sleep.
static INTERVAL_MS: AtomicU64 = AtomicU64::new(crate::options::DEFAULT_HEAP_SNAPSHOT_MS);
static SNAPSHOTTER: AtomicBool = AtomicBool::new(false);

/// A session starts (sampling is still off): its heap is empty and its history too;
/// the `hp-heap` thread is created once per process, one interval from now.
pub(crate) fn begin(options: &Options) {
    // The first session has nothing to clear, and clearing would touch (make resident)
    // every page of the tables.
    if sampler::started() {
        table::clear();
        totals::clear();
    }
    lock(&WRITTEN).clear();
    {
        let mut guard = lock(&STATE);
        let state = guard.get_or_insert_with(State::default);
        state.history.clear();
        state.snapshots = 0;
        state.ignore = options.heap_ignore.clone();
    }
    INTERVAL_MS.store(options.heap_snapshot_ms.max(1), Ordering::Relaxed);
    if SNAPSHOTTER.swap(true, Ordering::AcqRel) {
        return;
    }
    let interval = || Duration::from_millis(INTERVAL_MS.load(Ordering::Relaxed));
    crate::spawn::after(
        interval(),
        std::thread::Builder::new().name("hp-heap".into()),
        move || {
            crate::memory::profiler_thread();
            loop {
                if sampler::sampling() {
                    snapshot();
                }
                std::thread::sleep(interval());
            }
        },
        |e| {
            crate::diag::warn(&format!(
                "hotpath-heap: could not start the snapshot thread ({e}); growth is judged at exit only"
            ))
        },
    );
}

/// Appends the live heap now to every stack's history. What it allocates (symbols
/// resolved, the grouping) is the profiler's: never counted, never sampled.
pub(crate) fn snapshot() {
    crate::memory::untracked(take_snapshot);
}

fn take_snapshot() {
    let ignore = lock(&STATE).get_or_insert_with(State::default).ignore.clone();
    let (groups, _, _) = groups(&ignore, &[]);
    let mut now: HashMap<String, u64> = HashMap::new();
    for group in &groups {
        let name = group.frames.first().map(Frame::label).unwrap_or_default();
        *now.entry(name).or_default() += group.estimate.bytes.round() as u64;
    }
    let mut guard = lock(&STATE);
    let state = guard.get_or_insert_with(State::default);
    state.snapshots += 1;
    for (name, history) in state.history.iter_mut() {
        history.push_back(now.remove(name.as_str()).unwrap_or(0));
    }
    for (name, bytes) in now {
        state.history.insert(name, VecDeque::from([bytes]));
    }
    state.history.retain(|_, h| {
        while h.len() > GROWTH_WINDOW {
            h.pop_front();
        }
        h.iter().any(|&b| b > 0)
    });
}

/// Records the profile files written, for the section's `files`.
pub(crate) fn set_written(paths: Vec<std::path::PathBuf>) {
    *lock(&WRITTEN) = paths.iter().map(|p| p.display().to_string()).collect();
}

/// Runs `f` with the resolved symbols kept across snapshots.
pub(crate) fn with_symbols<R>(f: impl FnOnce(&mut Symbols) -> R) -> R {
    f(&mut lock(&STATE).get_or_insert_with(State::default).symbols)
}

/// One stack's samples, named.
pub(crate) struct Group {
    pub(crate) frames: Vec<Frame>,
    pub(crate) estimate: Estimate,
}

/// Live samples grouped by named stack (its first [`SHOWN`] frames), allow-listed
/// stacks apart, and per measured function on the whole stack: `(groups, ignored,
/// functions)`.
pub(crate) fn groups(ignore: &[String], measured: &[String]) -> (Vec<Group>, Estimate, Vec<(String, Estimate)>) {
    let mean = sampler::mean_bytes();
    let mut guard = lock(&STATE);
    let state = guard.get_or_insert_with(State::default);
    let mut by_stack: HashMap<Vec<Frame>, Group> = HashMap::new();
    let mut ignored = Estimate::default();
    let mut functions: HashMap<&str, Estimate> = HashMap::new();
    for sample in table::live() {
        let (mut frames, skip) = state.symbols.stack(sample.frames(), ignore);
        if skip {
            ignored.add(sample.size, mean);
            continue;
        }
        let mut seen: Vec<&str> = Vec::new();
        for name in frames.iter().filter_map(|f| measured_name(f, measured)) {
            if !seen.contains(&name) {
                seen.push(name);
                functions.entry(name).or_default().add(sample.size, mean);
            }
        }
        frames.truncate(SHOWN);
        let group = by_stack.entry(frames.clone()).or_insert_with(|| Group { frames, estimate: Estimate::default() });
        group.estimate.add(sample.size, mean);
    }
    let mut groups: Vec<Group> = by_stack.into_values().collect();
    groups.sort_by(|a, b| b.estimate.bytes.total_cmp(&a.estimate.bytes));
    let mut functions: Vec<(String, Estimate)> = functions.into_iter().map(|(n, e)| (n.to_string(), e)).collect();
    functions.sort_by(|a, b| b.1.bytes.total_cmp(&a.1.bytes));
    (groups, ignored, functions)
}

/// The measured function `frame` is, if any: by its full path, or by the last segment
/// of the path for an inlined frame that debug info names bare.
fn measured_name<'m>(frame: &Frame, measured: &'m [String]) -> Option<&'m str> {
    let f = frame.function.as_str();
    measured.iter().find(|m| *m == f || (!f.contains("::") && m.rsplit("::").next() == Some(f))).map(String::as_str)
}

/// The section; `None` when heap sampling never started.
pub(crate) fn section(options: &Options) -> Option<Heap> {
    if !sampler::started() {
        return None;
    }
    let mut measured: Vec<String> = crate::record::registered_sites().iter().skip(1).map(|s| s.name()).collect();
    measured.sort();
    measured.dedup();
    let (groups, ignored, functions) = groups(&options.heap_ignore, &measured);
    let mut total = Estimate::default();
    let mut rows: Vec<HeapStack> = Vec::with_capacity(groups.len());
    for group in &groups {
        total.merge(&group.estimate);
        rows.push(row(group));
    }
    let snapshots = with_history(&mut rows);
    let (total_stacks, rows) = crate::record::select(rows, |r| &r.name, options);
    let mut section = Heap::default();
    section.sample_bytes = sampler::mean_bytes();
    section.confidence = 0.95;
    section.live_samples = total.samples + ignored.samples;
    section.live_bytes = total.bytes.round() as u64;
    (section.live_bytes_low, section.live_bytes_high) = total.interval(total.bytes);
    section.live_objects = total.objects.round() as u64;
    section.ignored_bytes = ignored.bytes.round() as u64;
    section.ignore = options.heap_ignore.clone();
    section.dropped_samples = table::DROPPED.load(Ordering::Relaxed);
    section.growth_window = GROWTH_WINDOW;
    section.snapshot_ms = options.heap_snapshot_ms;
    section.snapshots = snapshots;
    section.total_stacks = total_stacks;
    section.files = lock(&WRITTEN).clone();
    section.rows = rows;
    section.functions = functions.iter().map(|(name, e)| function_row(name, e)).collect();
    if options.limit > 0 {
        section.functions.truncate(options.limit);
    }
    Some(section)
}

fn row(group: &Group) -> HeapStack {
    let e = &group.estimate;
    let mut row = HeapStack::default();
    if let Some(site) = group.frames.first() {
        row.name = site.label();
        row.function = site.function.clone();
        row.file = site.file.clone();
        row.line = site.line;
    }
    row.frames = group.frames.iter().map(Frame::label).collect();
    row.samples = e.samples;
    row.live_bytes = e.bytes.round() as u64;
    (row.live_bytes_low, row.live_bytes_high) = e.interval(e.bytes);
    row.live_objects = e.objects.round() as u64;
    (row.live_objects_low, row.live_objects_high) = e.interval(e.objects);
    row
}

fn function_row(name: &str, e: &Estimate) -> HeapFunction {
    let mut row = HeapFunction::default();
    row.name = name.to_string();
    row.samples = e.samples;
    row.live_bytes = e.bytes.round() as u64;
    (row.live_bytes_low, row.live_bytes_high) = e.interval(e.bytes);
    row.live_objects = e.objects.round() as u64;
    row
}

/// Gives each row its stack's history and growth flag; the number of snapshots.
fn with_history(rows: &mut [HeapStack]) -> u64 {
    let guard = lock(&STATE);
    let Some(state) = guard.as_ref() else { return 0 };
    for row in rows.iter_mut() {
        if let Some(history) = state.history.get(&row.name) {
            row.history = history.iter().copied().collect();
            row.growing = growing(&row.history);
        }
    }
    state.snapshots
}

/// Grew between at least three quarters of consecutive snapshots (at least 3 steps
/// of the window), and overall.
pub(crate) fn growing(history: &[u64]) -> bool {
    let steps = history.len().saturating_sub(1);
    let grew = history.windows(2).filter(|w| w[1] > w[0]).count();
    steps >= 3 && grew * 4 >= steps * 3 && history.last() > history.first()
}

#[cfg(test)]
mod tests {
    use super::growing;

    #[test]
    fn growth_needs_most_steps_up() {
        assert!(growing(&[1, 2, 3, 4]));
        assert!(growing(&[1, 2, 3, 3, 4, 5, 6, 7]));
        assert!(!growing(&[5, 5, 5, 5, 5]), "steady");
        assert!(!growing(&[1, 2, 1, 2, 1, 2, 1, 2]), "noise");
        assert!(!growing(&[1, 2, 3]), "too few snapshots");
    }
}
