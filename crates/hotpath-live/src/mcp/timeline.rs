//! The `timeline` tool: writes the flight recorder's trace to a file and answers with
//! the file's path and what an agent can act on without opening it: counts, and the
//! longest slices with the threads they ran on. Raw protobuf in a JSON-RPC reply would
//! help no model; a path it can hand to a person (or to trace_processor) does.

use std::collections::HashMap;
use std::path::PathBuf;

use hotpath_engine::export::{self, TraceFormat};
use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::server::{seconds_to_ns, OFF as TIMELINE_OFF};

/// The tool's name and description, for the tool list.
pub(crate) const TOOL: (&str, &str) = (
    "timeline",
    "The flight recorder's trace (needs HOTPATH_TIMELINE=on): written to a file (Perfetto protobuf for \
     ui.perfetto.dev, or Chrome JSON) whose path is returned, with its event and thread counts and the \
     longest slices (calls, polls, lock waits and holds, io) with their threads. `seconds`: the last N \
     seconds only.",
);

/// Longest slices listed.
const TOP: usize = 10;

/// Parameters of `timeline`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TimelineArgs {
    /// Seconds of timeline to write, ending now (a positive number, fractions allowed).
    /// Default: everything the rings hold.
    // A JSON value, so that a wrong type is reported with the argument's name.
    #[schemars(with = "Option<f64>")]
    pub(crate) seconds: Option<Value>,
    /// `perfetto` (protobuf, the default) or `json` (Chrome trace events).
    pub(crate) format: Option<String>,
    /// Name of the file to write in the system's temporary directory, which must not
    /// exist yet (a name, not a path: a client of the server does not choose where the
    /// program writes). Default: `hotpath-<pid>-<unix ms>.pftrace` (or `.json`).
    pub(crate) path: Option<String>,
}

/// Runs the tool: a short text and the structured data, or why not (naming the argument).
pub(crate) fn call(args: TimelineArgs) -> Result<(String, Value), String> {
    let window_ns = args.seconds.as_ref().map(seconds).transpose()?;
    let format = match args.format.as_deref() {
        None => TraceFormat::Perfetto,
        Some(text) => TraceFormat::parse(text.trim())
            .ok_or_else(|| format!("format {text:?} is not a trace format: use perfetto or json"))?,
    };
    if !hotpath_engine::timeline::usage().on {
        return Err(TIMELINE_OFF.to_string());
    }
    let path = match args.path {
        Some(p) => std::env::temp_dir().join(file_name(&p)?),
        None => default_path(format),
    };
    let (bytes, stats) = export::timeline(window_ns, format);
    let size = bytes.len();
    write_new(&path, &bytes).map_err(|e| format!("path {}: cannot write the trace ({e})", path.display()))?;
    // The slices are read from the JSON form: this very file, or a copy taken just after.
    let json = match format {
        TraceFormat::ChromeJson => bytes,
        TraceFormat::Perfetto => export::timeline(window_ns, TraceFormat::ChromeJson).0,
    };
    let slices = longest_slices(&json, TOP);
    let path = path.display().to_string();
    let lines: Vec<String> = slices
        .iter()
        .map(|s| {
            let (name, thread) = (s["name"].as_str().unwrap_or("?"), s["thread"].as_str().unwrap_or("?"));
            format!("- {name} on {thread}: {:.3} ms", s["duration_ns"].as_f64().unwrap_or(0.0) / 1e6)
        })
        .collect();
    let text = format!(
        "Wrote {path} ({} bytes, {} events on {} threads, {} torn). Longest slices:\n{}",
        size,
        stats.events,
        stats.threads,
        stats.torn,
        lines.join("\n")
    );
    let data = json!({
        "path": path,
        "format": if format == TraceFormat::Perfetto { "perfetto" } else { "json" },
        "bytes": size,
        "seconds": args.seconds,
        "events": stats.events,
        "threads": stats.threads,
        "torn": stats.torn,
        "laned": stats.laned,
        "crowded": stats.crowded,
        "longest_slices": slices,
    });
    Ok((text, data))
}

/// `seconds` as nanoseconds: a positive number, or a string holding one.
fn seconds(value: &Value) -> Result<u64, String> {
    let number = match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    number.and_then(seconds_to_ns).ok_or_else(|| format!("seconds {value} is not a positive number of seconds"))
}

/// Writes `bytes` to a file that must not exist yet: a client of the server may name
/// any name, and must not replace a file of the user's with a trace. Readable by the
/// program's user only: a trace names the program's functions and threads.
fn write_new(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(bytes)
}

/// `path` as a plain file name: no directory part, not hidden, not empty.
fn file_name(path: &str) -> Result<&str, String> {
    let name = path.trim();
    let plain = !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\\']);
    if plain {
        Ok(name)
    } else {
        Err(format!(
            "path {path:?} is not a plain file name: the trace goes to the temporary directory under the name given"
        ))
    }
}

fn default_path(format: TraceFormat) -> PathBuf {
    let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
    let extension = if format == TraceFormat::Perfetto { "pftrace" } else { "json" };
    std::env::temp_dir().join(format!("hotpath-{}-{ms}.{extension}", std::process::id()))
}

/// One event of a Chrome trace, as far as slices need it.
#[derive(Deserialize)]
struct TraceEvent {
    ph: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    cat: String,
    #[serde(default)]
    tid: u64,
    #[serde(default)]
    ts: f64,
    #[serde(default)]
    args: Option<HashMap<String, Value>>,
}

#[derive(Deserialize)]
struct Trace {
    #[serde(rename = "traceEvents")]
    events: Vec<TraceEvent>,
}

/// The `count` longest slices of a Chrome trace (its `B`/`E` pairs per track), longest
/// first, each with its track's thread name.
pub(crate) fn longest_slices(json: &[u8], count: usize) -> Vec<Value> {
    let Ok(trace) = serde_json::from_slice::<Trace>(json) else { return Vec::new() };
    let mut threads: HashMap<u64, String> = HashMap::new();
    let mut open: HashMap<u64, Vec<(String, String, f64)>> = HashMap::new();
    let mut slices: Vec<(f64, String, String, u64)> = Vec::new();
    for event in trace.events {
        match event.ph.as_str() {
            "M" if event.name == "thread_name" => {
                let name = event.args.and_then(|a| a.get("name").and_then(Value::as_str).map(String::from));
                threads.insert(event.tid, name.unwrap_or_default());
            }
            "B" => open.entry(event.tid).or_default().push((event.name, event.cat, event.ts)),
            "E" => {
                if let Some((name, category, start)) = open.get_mut(&event.tid).and_then(Vec::pop) {
                    slices.push((event.ts - start, name, category, event.tid));
                }
            }
            _ => {}
        }
    }
    slices.sort_by(|a, b| b.0.total_cmp(&a.0));
    slices
        .into_iter()
        .take(count)
        .map(|(us, name, category, tid)| {
            let thread = threads.get(&tid).cloned().unwrap_or_else(|| format!("thread {tid}"));
            json!({ "name": name, "category": category, "thread": thread, "duration_ns": (us * 1000.0).round() as u64 })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_pair_per_track_longest_first() {
        let trace = br#"{"traceEvents":[
            {"ph":"M","name":"thread_name","pid":1,"tid":7,"args":{"name":"main"}},
            {"ph":"M","name":"thread_name","pid":1,"tid":8,"args":{"name":"worker"}},
            {"ph":"B","name":"app::outer","cat":"function","pid":1,"tid":7,"ts":10.0,"args":{}},
            {"ph":"B","name":"app::inner","cat":"function","pid":1,"tid":7,"ts":11.0,"args":{}},
            {"ph":"B","name":"wait ledger","cat":"lock","pid":1,"tid":8,"ts":12.0,"args":{}},
            {"ph":"E","pid":1,"tid":7,"ts":13.5},
            {"ph":"i","s":"t","name":"send jobs","cat":"channel","pid":1,"tid":7,"ts":14.0},
            {"ph":"E","pid":1,"tid":8,"ts":15.0},
            {"ph":"E","pid":1,"tid":7,"ts":20.0},
            {"ph":"B","name":"lost","cat":"function","pid":1,"tid":9,"ts":1.0,"args":{}},
            {"ph":"E","pid":1,"tid":9,"ts":2.0}
        ]}"#;
        let slices = longest_slices(trace, 3);
        let seen: Vec<(&str, &str, u64)> = slices
            .iter()
            .map(|s| (s["name"].as_str().unwrap(), s["thread"].as_str().unwrap(), s["duration_ns"].as_u64().unwrap()))
            .collect();
        assert_eq!(
            seen,
            [("app::outer", "main", 10_000), ("wait ledger", "worker", 3_000), ("app::inner", "main", 2_500)]
        );
        assert_eq!(longest_slices(trace, 10)[3]["thread"], "thread 9", "a track without a name");
        assert!(longest_slices(b"not json", 3).is_empty());
    }

    #[test]
    fn bad_arguments_name_themselves() {
        for bad in [json!(0), json!(-2), json!("abc"), json!(true), json!(null)] {
            assert!(seconds(&bad).unwrap_err().starts_with("seconds "), "{bad}");
        }
        assert_eq!(seconds(&json!("0.25")), Ok(250_000_000));
        assert_eq!(seconds(&json!(1e300)), Ok(u64::MAX), "longer than the rings hold: everything");
        let format = call(TimelineArgs { format: Some("xml".into()), ..TimelineArgs::default() }).unwrap_err();
        assert!(format.starts_with("format \"xml\""), "{format}");
    }
}
