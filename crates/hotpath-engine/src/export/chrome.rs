//! A [`Layout`] as Chrome trace-event JSON (the format chrome://tracing, speedscope and
//! Perfetto UI read): `B`/`E` slices, `i` instants, `C` counters, `s`/`t`/`f` flow events
//! and `M` thread names. Timestamps are `CLOCK_MONOTONIC` microseconds with nanosecond
//! decimals, written as integers (no float formatting per event).

use std::fmt::Write;

use super::layout::{details, Flows, Layout, Step};
use crate::timeline::Snapshot;

/// Bytes gathered before they go to the sink.
const CHUNK: usize = 1 << 20;

/// Encodes `layout` of `snapshot` for process `pid` named `process` into `sink`.
pub(crate) fn encode(
    layout: &Layout,
    snapshot: &Snapshot,
    pid: u32,
    process: &str,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let names: Vec<String> = layout.names.iter().map(|n| quoted(n)).collect();
    let mut out = Json { text: String::with_capacity(CHUNK + 64 * 1024), first: true, snapshot };
    out.text.push_str("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    let process = quoted(process);
    out.line(format_args!(r#"{{"ph":"M","name":"process_name","pid":{pid},"tid":0,"args":{{"name":{process}}}}}"#));
    let mut lane = 0u64;
    for thread in &layout.threads {
        for track in &thread.tracks {
            // A lane (lock holds, async slices) gets a tid of its own: its slices need not nest with calls.
            let tid = match track.label {
                None => thread.tid,
                Some(_) => {
                    lane += 1;
                    (1 << 40) + lane
                }
            };
            let name = match track.label {
                None if thread.name.is_empty() => quoted(&format!("thread {}", thread.tid)),
                None => quoted(&thread.name),
                Some(label) => quoted(&format!("{} ({})", layout.names[label as usize], thread.tid)),
            };
            out.line(format_args!(
                r#"{{"ph":"M","name":"thread_name","pid":{pid},"tid":{tid},"args":{{"name":{name}}}}}"#
            ));
            for step in &track.steps {
                if out.text.len() > CHUNK {
                    sink.write_all(out.text.as_bytes())?;
                    out.text.clear();
                }
                match step {
                    Step::Begin { event, name } => {
                        let d = details(event);
                        out.event("B", &names[*name as usize], d.category, pid, tid, event.start);
                        if d.arg_count > 0 {
                            out.text.push_str(",\"args\":{");
                            for (i, (key, value)) in d.args().iter().enumerate() {
                                let comma = if i == 0 { "" } else { "," };
                                let _ = write!(out.text, "{comma}\"{key}\":{value}");
                            }
                            out.text.push('}');
                        }
                        out.text.push('}');
                        out.flows(&d.flows, pid, tid, event.start);
                    }
                    Step::End { at } => {
                        out.start();
                        let _ = write!(out.text, r#"{{"ph":"E","pid":{pid},"tid":{tid},"ts":"#);
                        out.ts(*at);
                        out.text.push('}');
                    }
                    Step::Instant { event, name } => {
                        let d = details(event);
                        out.event("i", &names[*name as usize], d.category, pid, tid, event.start);
                        out.text.push_str(",\"s\":\"t\"}");
                        out.flows(&d.flows, pid, tid, event.start);
                    }
                }
            }
        }
    }
    for counter in &layout.counters {
        let name = &names[counter.name as usize];
        for &(at, value) in &counter.points {
            let value = if value.is_finite() { value } else { 0.0 };
            out.start();
            let _ = write!(out.text, r#"{{"ph":"C","name":{name},"pid":{pid},"tid":0,"ts":"#);
            out.ts(at);
            let _ = write!(out.text, r#","args":{{"value":{value}}}}}"#);
        }
    }
    out.text.push_str("\n]}\n");
    sink.write_all(out.text.as_bytes())
}

/// The JSON being written: one event per line.
struct Json<'a> {
    text: String,
    first: bool,
    snapshot: &'a Snapshot,
}

impl Json<'_> {
    /// Starts a new event's line.
    fn start(&mut self) {
        if !std::mem::take(&mut self.first) {
            self.text.push_str(",\n");
        }
    }

    fn line(&mut self, text: std::fmt::Arguments) {
        self.start();
        let _ = self.text.write_fmt(text);
    }

    /// `{"ph":..,"name":..,"cat":..,"pid":..,"tid":..,"ts":..` (left open).
    fn event(&mut self, ph: &str, name: &str, category: &str, pid: u32, tid: u64, at: u64) {
        self.start();
        let _ = write!(self.text, r#"{{"ph":"{ph}","name":{name},"cat":"{category}","pid":{pid},"tid":{tid},"ts":"#);
        self.ts(at);
    }

    /// Microseconds of `CLOCK_MONOTONIC` with three decimals.
    fn ts(&mut self, at: u64) {
        let ns = self.snapshot.monotonic_ns(at);
        let _ = write!(self.text, "{}.{:03}", ns / 1000, ns % 1000);
    }

    /// The flow start (`s`), step (`t`) or end (`f`, bound to the enclosing slice) of an
    /// event. Ids are strings: JSON readers keep numbers as doubles, which would merge
    /// 64-bit ids.
    fn flows(&mut self, flows: &Flows, pid: u32, tid: u64, at: u64) {
        let kinds = [(flows.through, if flows.begins { "s" } else { "t" }), (flows.ends, "f")];
        for (id, ph) in kinds {
            let Some(id) = id else { continue };
            self.start();
            let bind = if ph == "f" { r#","bp":"e""# } else { "" };
            let _ = write!(
                self.text,
                r#"{{"ph":"{ph}"{bind},"name":"flow","cat":"flow","id":"{id:x}","pid":{pid},"tid":{tid},"ts":"#
            );
            self.ts(at);
            self.text.push('}');
        }
    }
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"?\"".into())
}
