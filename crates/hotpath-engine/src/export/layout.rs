//! A snapshot laid out as tracks of properly nested begin/end steps, instants and
//! counter points: what both trace formats write. Per thread, one track holds its calls,
//! polls, waits and `io!` operations (these nest, as they run on the thread's stack);
//! lock holds, which need not nest with calls (a guard may outlive its function), get a
//! child track per lock. Gauges are counter tracks of the process.

use std::collections::BTreeMap;

use super::names::Names;
use crate::timeline::{Event, Kind, Snapshot};

/// One step on a track, in the order the track's steps are written. Times in ticks.
pub(crate) enum Step {
    Begin { at: u64, name: usize, category: &'static str, args: Vec<(&'static str, u64)>, flows: Flows },
    End { at: u64 },
    Instant { at: u64, name: usize, category: &'static str, flows: Flows },
}

/// Flow ids an event starts or continues (`through`; `begins` when it starts it) and ends.
#[derive(Default)]
pub(crate) struct Flows {
    pub(crate) through: Option<u64>,
    pub(crate) begins: bool,
    pub(crate) ends: Option<u64>,
}

/// A track of one thread: its own (`lock` None) or the holds of one lock.
pub(crate) struct Track {
    pub(crate) lock: Option<usize>,
    pub(crate) steps: Vec<Step>,
}

/// One thread's tracks.
pub(crate) struct ThreadLayout {
    pub(crate) tid: u64,
    pub(crate) name: String,
    pub(crate) tracks: Vec<Track>,
}

/// A gauge's values over time.
pub(crate) struct Counter {
    pub(crate) name: usize,
    pub(crate) points: Vec<(u64, f64)>,
}

/// Everything a trace file says, names interned.
pub(crate) struct Layout {
    pub(crate) names: Vec<String>,
    pub(crate) threads: Vec<ThreadLayout>,
    pub(crate) counters: Vec<Counter>,
    /// Slices cut short to end inside their parent (overlapping, not nested, on a track).
    pub(crate) clipped: u64,
}

/// The flow that links a call's polls: distinct from channel flows by its top bit.
fn call_flow(call: u64) -> u64 {
    call | 1 << 63
}

impl Layout {
    /// Lays out `snapshot`, naming events with `names`.
    pub(crate) fn new(snapshot: &Snapshot, names: &Names) -> Layout {
        let mut layout = Layout { names: Vec::new(), threads: Vec::new(), counters: Vec::new(), clipped: 0 };
        let mut interned: BTreeMap<String, usize> = BTreeMap::new();
        let mut intern = |text: String, names: &mut Vec<String>| {
            *interned.entry(text).or_insert_with_key(|t| {
                names.push(t.clone());
                names.len() - 1
            })
        };
        let mut counters: BTreeMap<u32, Counter> = BTreeMap::new();
        for thread in &snapshot.threads {
            let mut main: Vec<(Event, usize)> = Vec::new();
            let mut holds: BTreeMap<u32, Vec<(Event, usize)>> = BTreeMap::new();
            let mut instants = Vec::new();
            for event in &thread.events {
                let what = names.of(event.kind, event.id, event.extra);
                let label = match event.kind {
                    Kind::LockWait => format!("wait {what}"),
                    Kind::SendWait => format!("send blocked {what}"),
                    Kind::Send => format!("send {what}"),
                    Kind::Receive => format!("recv {what}"),
                    Kind::Item => format!("item {what}"),
                    Kind::Io => format!("{what} {}", io_op(event.extra)),
                    _ => what,
                };
                let name = intern(label, &mut layout.names);
                match event.kind {
                    Kind::Gauge => {
                        let key = intern(names.of(Kind::Gauge, event.id, 0), &mut layout.names);
                        let counter = counters.entry(event.id).or_insert(Counter { name: key, points: Vec::new() });
                        counter.points.push((event.start, f64::from_bits(event.extra)));
                    }
                    Kind::LockHold => holds.entry(event.id).or_default().push((*event, name)),
                    Kind::Send | Kind::Receive | Kind::Item | Kind::Mark => instants.push((*event, name)),
                    _ => main.push((*event, name)),
                }
            }
            let mut tracks = vec![Track { lock: None, steps: nest(main, &mut layout.clipped) }];
            merge_instants(&mut tracks[0].steps, instants);
            for (id, slices) in holds {
                let lock = intern(format!("holds {}", names.of(Kind::LockHold, id, 0)), &mut layout.names);
                tracks.push(Track { lock: Some(lock), steps: nest(slices, &mut layout.clipped) });
            }
            layout.threads.push(ThreadLayout { tid: thread.tid, name: thread.name.clone(), tracks });
        }
        layout.counters = counters.into_values().collect();
        layout
    }
}

fn io_op(extra: u64) -> &'static str {
    match extra >> 56 {
        0 => "read",
        1 => "write",
        2 => "flush",
        _ => "shutdown",
    }
}

/// Begin and end steps of slices that nest: sorted by start, the longer (outer) one
/// first, and at equal spans the one finished later (the parent, written after its
/// children). A slice that would outlast its parent is cut at the parent's end.
fn nest(mut slices: Vec<(Event, usize)>, clipped: &mut u64) -> Vec<Step> {
    let order: Vec<usize> = (0..slices.len()).collect();
    let mut keyed: Vec<(usize, (Event, usize))> = order.into_iter().zip(slices.drain(..)).collect();
    keyed.sort_by(|(ia, (a, _)), (ib, (b, _))| a.start.cmp(&b.start).then(b.end().cmp(&a.end())).then(ib.cmp(ia)));
    let mut steps = Vec::with_capacity(keyed.len() * 2);
    let mut open: Vec<u64> = Vec::new();
    for (_, (event, name)) in keyed {
        while let Some(&end) = open.last() {
            if end > event.start || (end == event.start && event.len == 0 && end == event.end()) {
                break;
            }
            steps.push(Step::End { at: end });
            open.pop();
        }
        let mut end = event.end();
        if let Some(&parent) = open.last() {
            if end > parent {
                end = parent;
                *clipped += 1;
            }
        }
        let (category, args, flows) = describe(&event);
        steps.push(Step::Begin { at: event.start, name, category, args, flows });
        open.push(end);
    }
    while let Some(end) = open.pop() {
        steps.push(Step::End { at: end });
    }
    steps
}

fn describe(event: &Event) -> (&'static str, Vec<(&'static str, u64)>, Flows) {
    match event.kind {
        Kind::Poll => {
            let call = event.extra >> 2;
            let (first, last) = (event.extra & 2 != 0, event.extra & 1 != 0);
            // A call's polls form one flow, from its first poll to its last.
            let flow = call_flow(call);
            let flows = match (first, last) {
                (true, true) => Flows::default(),
                (begins, false) => Flows { through: Some(flow), begins, ends: None },
                (false, true) => Flows { through: None, begins: false, ends: Some(flow) },
            };
            ("poll", vec![("call", call), ("first_poll", first as u64), ("last_poll", last as u64)], flows)
        }
        Kind::LockWait | Kind::LockHold => ("lock", Vec::new(), Flows::default()),
        Kind::SendWait => ("channel", Vec::new(), Flows::default()),
        Kind::Io => ("io", vec![("bytes", event.extra & ((1 << 56) - 1))], Flows::default()),
        Kind::Request if event.extra != 0 => ("request", vec![("status", event.extra)], Flows::default()),
        Kind::Request => ("request", Vec::new(), Flows::default()),
        _ => ("function", Vec::new(), Flows::default()),
    }
}

/// Puts instants among a track's steps in time order (after the steps at their tick).
fn merge_instants(steps: &mut Vec<Step>, mut instants: Vec<(Event, usize)>) {
    if instants.is_empty() {
        return;
    }
    instants.sort_by_key(|(e, _)| e.start);
    let old = std::mem::take(steps);
    let mut pending = instants.into_iter().peekable();
    for step in old {
        let at = match &step {
            Step::Begin { at, .. } | Step::End { at } | Step::Instant { at, .. } => *at,
        };
        while let Some((event, _)) = pending.peek() {
            if event.start >= at {
                break;
            }
            let (event, name) = pending.next().expect("peeked");
            steps.push(instant(event, name));
        }
        steps.push(step);
    }
    steps.extend(pending.map(|(e, n)| instant(e, n)));
}

fn instant(event: Event, name: usize) -> Step {
    let category = match event.kind {
        Kind::Item => "stream",
        Kind::Mark => "debug",
        _ => "channel",
    };
    let flows = match event.kind {
        Kind::Send if event.extra != 0 => Flows { through: Some(event.extra), begins: true, ends: None },
        Kind::Receive if event.extra != 0 => Flows { through: None, begins: false, ends: Some(event.extra) },
        _ => Flows::default(),
    };
    Step::Instant { at: event.start, name, category, flows }
}
