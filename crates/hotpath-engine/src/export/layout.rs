//! A snapshot laid out as tracks of properly nested begin/end steps, instants and
//! counter points: what both trace formats write (a track's slices must nest).
//!
//! - Per thread, its own track holds what ran on its stack: calls, polls, and the waits,
//!   `io!` operations and requests that nest in them. A slice that does not nest (an
//!   async wait, read or request spans polls of other tasks; it is written by the thread
//!   where it ends) goes to the thread's lanes: child tracks where slices never
//!   overlap, as many as the overlaps need.
//! - Lock holds need not nest with calls (a guard may outlive its function): per lock
//!   the thread held, lanes of their own.
//! - Gauges, RSS and per-thread CPU are counter tracks of the process.
//!
//! Laying out is linear in the events on a thread's track: its ring holds them in the
//! order they ended, which for nested slices is the post-order of their tree, so
//! walking it backwards with a stack gives the steps in reverse (`nest`).

use std::collections::{BTreeMap, HashMap};

use super::intern::{counter_name, Interner};
use super::names::Names;
use crate::timeline::{Event, Kind, Snapshot};

/// One step on a track, in the order the track's steps are written. Times in ticks. A
/// slice begins at its event's start; what else it says comes from [`details`], as the
/// encoders write it (kept small: a full window has two million steps).
pub(crate) enum Step<'a> {
    Begin { event: &'a Event, name: u32 },
    End { at: u64 },
    Instant { event: &'a Event, name: u32 },
}

impl Step<'_> {
    /// When the step happens (ticks).
    pub(crate) fn at(&self) -> u64 {
        match self {
            Step::Begin { event, .. } | Step::Instant { event, .. } => event.start,
            Step::End { at } => *at,
        }
    }
}

/// What an event's slice or instant carries besides its name and time.
pub(crate) struct Details {
    pub(crate) category: &'static str,
    /// Named values (`call`, `bytes`, `status`): the first `arg_count`.
    pub(crate) args: [(&'static str, u64); 3],
    pub(crate) arg_count: usize,
    pub(crate) flows: Flows,
}

impl Details {
    fn new(category: &'static str) -> Self {
        Self { category, args: [("", 0); 3], arg_count: 0, flows: Flows::default() }
    }

    fn arg(mut self, key: &'static str, value: u64) -> Self {
        self.args[self.arg_count] = (key, value);
        self.arg_count += 1;
        self
    }

    /// The named values.
    pub(crate) fn args(&self) -> &[(&'static str, u64)] {
        &self.args[..self.arg_count]
    }
}

/// Flow ids an event starts or continues (`through`; `begins` when it starts it) and ends.
#[derive(Default)]
pub(crate) struct Flows {
    pub(crate) through: Option<u64>,
    pub(crate) begins: bool,
    pub(crate) ends: Option<u64>,
}

/// A track of one thread: its own (`label` None), or a lane (`label` names it:
/// `holds <lock>`, `async`, with ` #2`... for more lanes of the same).
pub(crate) struct Track<'a> {
    pub(crate) label: Option<u32>,
    pub(crate) steps: Vec<Step<'a>>,
}

/// One thread's tracks.
pub(crate) struct ThreadLayout<'a> {
    pub(crate) tid: u64,
    pub(crate) name: String,
    pub(crate) tracks: Vec<Track<'a>>,
}

/// A gauge's values over time.
pub(crate) struct Counter {
    pub(crate) name: u32,
    pub(crate) points: Vec<(u64, f64)>,
}

/// Everything a trace file says, names interned.
pub(crate) struct Layout<'a> {
    pub(crate) names: Vec<String>,
    pub(crate) threads: Vec<ThreadLayout<'a>>,
    pub(crate) counters: Vec<Counter>,
    /// Slices that did not nest in their thread's stack and went to a lane.
    pub(crate) laned: u64,
    /// Slices left out because every lane of theirs was busy ([`MAX_LANES`]).
    pub(crate) crowded: u64,
}

/// The flow that links a call's polls: distinct from channel flows by its top bit.
fn call_flow(call: u64) -> u64 {
    call | 1 << 63
}

/// One call of a measured future, named by its site and its start: the same on every
/// poll, on whatever thread.
fn call_id(site: u32, start: u64) -> u64 {
    (start ^ u64::from(site).wrapping_mul(0x9e37_79b9_7f4a_7c15)) >> 1
}

impl<'a> Layout<'a> {
    /// Lays out `snapshot`, naming events with `names`.
    pub(crate) fn new(snapshot: &'a Snapshot, names: &Names) -> Layout<'a> {
        let mut intern = Interner::new(names);
        let mut laned = 0;
        let mut crowded = 0;
        let mut threads = Vec::with_capacity(snapshot.threads.len());
        let mut counters: BTreeMap<(u8, u32), Counter> = BTreeMap::new();
        let thread_names: HashMap<u32, &str> =
            snapshot.threads.iter().map(|t| (t.tid as u32, t.name.as_str())).collect();
        for thread in &snapshot.threads {
            let mut main: Vec<(&Event, u32)> = Vec::with_capacity(thread.events.len());
            let mut holds: BTreeMap<u32, Vec<(&Event, u32)>> = BTreeMap::new();
            let mut instants = Vec::new();
            for event in &thread.events {
                match event.kind {
                    Kind::Gauge | Kind::Rss | Kind::ThreadCpu => {
                        let key = (event.kind as u8, event.id);
                        let counter = match counters.get_mut(&key) {
                            Some(counter) => counter,
                            None => {
                                let label = counter_name(event, names, &thread_names);
                                let name = intern.text(label);
                                counters.entry(key).or_insert(Counter { name, points: Vec::new() })
                            }
                        };
                        let value = match event.kind {
                            Kind::Rss => event.extra as f64,
                            _ => f64::from_bits(event.extra),
                        };
                        counter.points.push((event.start, value));
                    }
                    Kind::LockHold => holds.entry(event.id).or_default().push((event, intern.event(event))),
                    Kind::Send | Kind::Receive | Kind::Item | Kind::Mark => instants.push((event, intern.event(event))),
                    _ => main.push((event, intern.event(event))),
                }
            }
            let (steps, overflow) = nest(&main);
            laned += overflow.len() as u64;
            let mut tracks = vec![Track { label: None, steps }];
            merge_instants(&mut tracks[0].steps, instants);
            let async_label = intern.text("async".into());
            crowded += lanes(overflow, async_label, &mut intern, &mut tracks);
            for (id, slices) in holds {
                let label = intern.text(format!("holds {}", names.of(Kind::LockHold, id, 0)));
                crowded += lanes(slices, label, &mut intern, &mut tracks);
            }
            threads.push(ThreadLayout { tid: thread.tid, name: thread.name.clone(), tracks });
        }
        Layout { names: intern.texts, threads, counters: counters.into_values().collect(), laned, crowded }
    }
}

/// The begin and end steps of the slices that nest, in time order, and those that do
/// not. `slices` are in the order they ended (a thread's ring order); walking them
/// backwards, a slice is closed (in reverse, its begin is written) once the next one
/// ended before it began; a slice that began before the open one it ends inside does
/// not nest. Ends out of order (clocks of CPUs that disagree) take the sorting path.
type Slices<'a> = Vec<(&'a Event, u32)>;

fn nest<'a>(slices: &[(&'a Event, u32)]) -> (Vec<Step<'a>>, Slices<'a>) {
    if !slices.windows(2).all(|w| w[0].0.end() <= w[1].0.end()) {
        return nest_sorted(slices);
    }
    let mut reversed = Vec::with_capacity(slices.len() * 2);
    let mut overflow = Vec::new();
    let mut open: Slices<'a> = Vec::new();
    for &(event, name) in slices.iter().rev() {
        while let Some(&(top, top_name)) = open.last() {
            if top.start < event.end() {
                break;
            }
            reversed.push(Step::Begin { event: top, name: top_name });
            open.pop();
        }
        if open.last().is_some_and(|(top, _)| event.start < top.start) {
            overflow.push((event, name));
            continue;
        }
        reversed.push(Step::End { at: event.end() });
        open.push((event, name));
    }
    while let Some((event, name)) = open.pop() {
        reversed.push(Step::Begin { event, name });
    }
    reversed.reverse();
    (reversed, overflow)
}

/// [`nest`] for slices whose ends are out of order: sorted by start, the longer (outer)
/// one first, and at equal spans the one written later (the parent).
fn nest_sorted<'a>(slices: &[(&'a Event, u32)]) -> (Vec<Step<'a>>, Slices<'a>) {
    let mut order: Vec<(u64, u64, u32)> =
        slices.iter().enumerate().map(|(i, (e, _))| (e.start, u64::MAX - e.end(), u32::MAX - i as u32)).collect();
    order.sort_unstable();
    let mut steps = Vec::with_capacity(slices.len() * 2);
    let mut overflow = Vec::new();
    let mut open: Vec<u64> = Vec::new();
    for (_, _, reversed) in order {
        let (event, name) = slices[(u32::MAX - reversed) as usize];
        while let Some(&end) = open.last() {
            if end > event.start || (end == event.start && event.len == 0) {
                break;
            }
            steps.push(Step::End { at: end });
            open.pop();
        }
        if open.last().is_some_and(|&parent| event.end() > parent) {
            overflow.push((event, name));
            continue;
        }
        steps.push(Step::Begin { event, name });
        open.push(event.end());
    }
    while let Some(end) = open.pop() {
        steps.push(Step::End { at: end });
    }
    (steps, overflow)
}

/// Lanes one label may take on a thread: a viewer shows each as a track, and more
/// than a screenful of overlapping slices reads as noise (and would make laying out
/// quadratic).
pub(crate) const MAX_LANES: usize = 32;

/// Lane tracks for slices that may overlap: each slice, by start, in the first lane free
/// since before it began; lanes named `label`, `label #2`, ... up to [`MAX_LANES`]. A
/// slice finding every lane busy is left out; returns how many were.
fn lanes<'a>(mut slices: Slices<'a>, label: u32, intern: &mut Interner<'_>, tracks: &mut Vec<Track<'a>>) -> u64 {
    slices.sort_by_key(|(e, _)| (e.start, e.end()));
    let mut lanes: Vec<(u64, Vec<Step<'a>>)> = Vec::new();
    let mut crowded = 0;
    for (event, name) in slices {
        let lane = match lanes.iter().position(|(free, _)| *free <= event.start) {
            Some(i) => i,
            None if lanes.len() < MAX_LANES => {
                lanes.push((0, Vec::new()));
                lanes.len() - 1
            }
            None => {
                crowded += 1;
                continue;
            }
        };
        let (free, steps) = &mut lanes[lane];
        steps.push(Step::Begin { event, name });
        steps.push(Step::End { at: event.end() });
        *free = event.end();
    }
    for (i, (_, steps)) in lanes.into_iter().enumerate() {
        let label = match i {
            0 => label,
            _ => {
                let text = format!("{} #{}", intern.texts[label as usize], i + 1);
                intern.text(text)
            }
        };
        tracks.push(Track { label: Some(label), steps });
    }
    crowded
}

/// What `event` carries besides its name and time.
pub(crate) fn details(event: &Event) -> Details {
    match event.kind {
        Kind::Poll => {
            // The call's start, which its first poll began at (the low bit aside).
            let start = event.extra & !1;
            let (first, last) = (event.start & !1 == start, event.extra & 1 != 0);
            let call = call_id(event.id, start);
            // A call's polls form one flow, from its first poll to its last.
            let flow = call_flow(call);
            let mut d =
                Details::new("poll").arg("call", call).arg("first_poll", first as u64).arg("last_poll", last as u64);
            d.flows = match (first, last) {
                (true, true) => Flows::default(),
                (begins, false) => Flows { through: Some(flow), begins, ends: None },
                (false, true) => Flows { through: None, begins: false, ends: Some(flow) },
            };
            d
        }
        Kind::LockWait | Kind::LockHold => Details::new("lock"),
        Kind::SendWait => Details::new("channel"),
        Kind::Io => Details::new("io").arg("bytes", event.extra & ((1 << 56) - 1)),
        Kind::Request if event.extra != 0 => Details::new("request").arg("status", event.extra),
        Kind::Request => Details::new("request"),
        Kind::Send | Kind::Receive => {
            let mut d = Details::new("channel");
            if event.extra != 0 {
                d.flows = match event.kind {
                    Kind::Send => Flows { through: Some(event.extra), begins: true, ends: None },
                    _ => Flows { through: None, begins: false, ends: Some(event.extra) },
                };
            }
            d
        }
        Kind::Item => Details::new("stream"),
        Kind::Mark => Details::new("debug"),
        _ => Details::new("function"),
    }
}

/// Puts instants among a track's steps in time order (after the steps at their tick).
fn merge_instants<'a>(steps: &mut Vec<Step<'a>>, mut instants: Slices<'a>) {
    if instants.is_empty() {
        return;
    }
    instants.sort_by_key(|(e, _)| e.start);
    let old = std::mem::take(steps);
    steps.reserve(old.len() + instants.len());
    let mut pending = instants.into_iter().peekable();
    for step in old {
        while let Some(&(event, name)) = pending.peek() {
            if event.start >= step.at() {
                break;
            }
            pending.next();
            steps.push(Step::Instant { event, name });
        }
        steps.push(step);
    }
    steps.extend(pending.map(|(event, name)| Step::Instant { event, name }));
}
