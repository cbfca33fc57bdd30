//! A [`Layout`] as Chrome trace-event JSON (the format chrome://tracing, speedscope and
//! Perfetto UI read): `B`/`E` slices, `i` instants, `C` counters, `s`/`f` flow events
//! and `M` thread names. Timestamps are `CLOCK_MONOTONIC` microseconds.

use std::fmt::Write;

use super::layout::{Flows, Layout, Step};
use crate::timeline::Snapshot;

/// Encodes `layout` of `snapshot` for process `pid` named `process`.
pub(crate) fn encode(layout: &Layout, snapshot: &Snapshot, pid: u32, process: &str) -> Vec<u8> {
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    let mut first = true;
    let mut line = |out: &mut String, text: std::fmt::Arguments| {
        if !std::mem::take(&mut first) {
            out.push_str(",\n");
        }
        let _ = out.write_fmt(text);
    };
    let us = |ticks: u64| snapshot.monotonic_ns(ticks) as f64 / 1000.0;
    let process = quoted(process);
    line(
        &mut out,
        format_args!(r#"{{"ph":"M","name":"process_name","pid":{pid},"tid":0,"args":{{"name":{process}}}}}"#),
    );
    let mut lane = 0u64;
    for thread in &layout.threads {
        for track in &thread.tracks {
            // A lock's holds go on a lane of their own: they need not nest with calls.
            let tid = match track.lock {
                None => thread.tid,
                Some(_) => {
                    lane += 1;
                    (1 << 40) + lane
                }
            };
            let name = match track.lock {
                None if thread.name.is_empty() => quoted(&format!("thread {}", thread.tid)),
                None => quoted(&thread.name),
                Some(lock) => quoted(&format!("{} ({})", layout.names[lock], thread.tid)),
            };
            line(
                &mut out,
                format_args!(r#"{{"ph":"M","name":"thread_name","pid":{pid},"tid":{tid},"args":{{"name":{name}}}}}"#),
            );
            for step in &track.steps {
                match step {
                    Step::Begin { at, name, category, args, flows } => {
                        let name = quoted(&layout.names[*name]);
                        let ts = us(*at);
                        let args: Vec<String> = args.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                        let args = args.join(",");
                        line(
                            &mut out,
                            format_args!(
                                r#"{{"ph":"B","name":{name},"cat":"{category}","pid":{pid},"tid":{tid},"ts":{ts:.3},"args":{{{args}}}}}"#
                            ),
                        );
                        flow_events(&mut |t| line(&mut out, t), flows, pid, tid, ts);
                    }
                    Step::End { at } => {
                        let ts = us(*at);
                        line(&mut out, format_args!(r#"{{"ph":"E","pid":{pid},"tid":{tid},"ts":{ts:.3}}}"#));
                    }
                    Step::Instant { at, name, category, flows } => {
                        let name = quoted(&layout.names[*name]);
                        let ts = us(*at);
                        line(
                            &mut out,
                            format_args!(
                                r#"{{"ph":"i","s":"t","name":{name},"cat":"{category}","pid":{pid},"tid":{tid},"ts":{ts:.3}}}"#
                            ),
                        );
                        flow_events(&mut |t| line(&mut out, t), flows, pid, tid, ts);
                    }
                }
            }
        }
    }
    for counter in &layout.counters {
        let name = quoted(&layout.names[counter.name]);
        for &(at, value) in &counter.points {
            let ts = us(at);
            let value = if value.is_finite() { value } else { 0.0 };
            line(
                &mut out,
                format_args!(
                    r#"{{"ph":"C","name":{name},"pid":{pid},"tid":0,"ts":{ts:.3},"args":{{"value":{value}}}}}"#
                ),
            );
        }
    }
    out.push_str("\n]}\n");
    out.into_bytes()
}

/// The flow start (`s`), step (`t`) or end (`f`, bound to the enclosing slice) of an event.
fn flow_events(line: &mut impl FnMut(std::fmt::Arguments), flows: &Flows, pid: u32, tid: u64, ts: f64) {
    if let Some(id) = flows.through {
        let ph = if flows.begins { 's' } else { 't' };
        line(format_args!(
            r#"{{"ph":"{ph}","name":"flow","cat":"flow","id":"{id:x}","pid":{pid},"tid":{tid},"ts":{ts:.3}}}"#
        ));
    }
    if let Some(id) = flows.ends {
        line(format_args!(
            r#"{{"ph":"f","bp":"e","name":"flow","cat":"flow","id":"{id:x}","pid":{pid},"tid":{tid},"ts":{ts:.3}}}"#
        ));
    }
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"?\"".into())
}
