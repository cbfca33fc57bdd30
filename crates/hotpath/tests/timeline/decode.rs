//! Reading traces back for `tests/timeline.rs`: Perfetto files through Perfetto's own
//! schema (`decode_perfetto.py`, the `perfetto` package's `perfetto_trace_pb2`), Chrome
//! JSON with serde_json; both into the same [`Slice`]s.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// One slice (or instant, `end == start`) with what the tests look at.
#[derive(Clone, Debug)]
pub(crate) struct Slice {
    pub(crate) name: String,
    pub(crate) thread: String,
    /// The track's own name: empty for a thread's track, `holds <lock>` for a lock's.
    pub(crate) track: String,
    pub(crate) start: f64,
    pub(crate) end: f64,
    pub(crate) depth: u64,
    pub(crate) args: Value,
    pub(crate) flows: Vec<u64>,
    pub(crate) ends_flows: Vec<u64>,
}

/// A directory of its own for one test, removed when dropped.
pub(crate) struct Scratch(PathBuf);

impl Scratch {
    /// A fresh, empty directory named after the process and `tag`.
    pub(crate) fn new(tag: u32) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hotpath-timeline-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A Python that can `import perfetto`, or None (a failure under scripts/test).
pub(crate) fn python() -> Option<PathBuf> {
    let python = std::env::var_os("HOTPATH_TEST_PYTHON").map_or_else(|| PathBuf::from("python3"), PathBuf::from);
    let works = Command::new(&python).args(["-c", "import perfetto.protos"]).output().is_ok_and(|o| o.status.success());
    if works {
        return Some(python);
    }
    assert!(
        std::env::var_os("HOTPATH_TEST_SUITE").is_none(),
        "{} cannot import perfetto; scripts/test installs it",
        python.display()
    );
    eprintln!("skipped: no Python with the `perfetto` package (scripts/test installs one)");
    None
}

/// A Perfetto trace decoded with Perfetto's schema.
pub(crate) struct Decoded {
    pub(crate) slices: Vec<Slice>,
    /// Instants, as slices of no length.
    pub(crate) instants: Vec<Slice>,
    /// (counter track name, value), in time order.
    pub(crate) counters: Vec<(String, f64)>,
    /// The decoder's whole output.
    pub(crate) raw: Value,
}

/// Decodes `trace` with Perfetto's schema (`decode_perfetto.py`).
pub(crate) fn perfetto(python: &Path, trace: &Path) -> Decoded {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/timeline/decode_perfetto.py");
    let out = Command::new(python).arg(script).arg(trace).output().expect("python runs");
    assert!(out.status.success(), "{} does not decode: {}", trace.display(), String::from_utf8_lossy(&out.stderr));
    let decoded: Value = serde_json::from_slice(&out.stdout).expect("decoder prints JSON");
    let slice = |v: &Value, end: &str, start: &str| Slice {
        name: v["name"].as_str().unwrap_or_default().to_string(),
        thread: v["thread"].as_str().unwrap_or_default().to_string(),
        track: v["track_name"].as_str().unwrap_or_default().to_string(),
        start: v[start].as_f64().unwrap(),
        end: v[end].as_f64().unwrap(),
        depth: v["depth"].as_u64().unwrap_or(0),
        args: v["args"].clone(),
        flows: ids(&v["flows"]),
        ends_flows: ids(&v["terminating_flows"]),
    };
    let slices = decoded["slices"].as_array().unwrap().iter().map(|v| slice(v, "end", "start")).collect();
    let instants = decoded["instants"].as_array().unwrap().iter().map(|v| slice(v, "at", "at")).collect();
    let counters = decoded["counters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap().to_string(), c["value"].as_f64().unwrap()))
        .collect();
    Decoded { slices, instants, counters, raw: decoded }
}

fn ids(v: &Value) -> Vec<u64> {
    v.as_array().map_or_else(Vec::new, |a| a.iter().filter_map(Value::as_u64).collect())
}

/// A Chrome trace-event JSON file's `B`/`E` slices per (pid, tid) lane, named by its
/// `thread_name` metadata; panics on an `E` without a `B` or a `B` never ended.
pub(crate) fn chrome(trace: &Path) -> Vec<Slice> {
    let json: Value = serde_json::from_slice(&std::fs::read(trace).unwrap()).expect("the file is JSON");
    let events = json["traceEvents"].as_array().expect("traceEvents");
    let lane = |e: &Value| (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
    let names: std::collections::HashMap<_, String> = events
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name")
        .map(|e| (lane(e), e["args"]["name"].as_str().unwrap().to_string()))
        .collect();
    let mut open: std::collections::HashMap<(u64, u64), Vec<Slice>> = Default::default();
    let mut slices = Vec::new();
    for e in events {
        let ts = || e["ts"].as_f64().expect("ts");
        match e["ph"].as_str().unwrap() {
            "B" => {
                let stack = open.entry(lane(e)).or_default();
                let name = names.get(&lane(e)).cloned().unwrap_or_default();
                let (thread, track) = match name.strip_prefix("holds ") {
                    Some(_) => (String::new(), name.clone()),
                    None => (name, String::new()),
                };
                stack.push(Slice {
                    name: e["name"].as_str().unwrap().to_string(),
                    thread,
                    track,
                    start: ts(),
                    end: 0.0,
                    depth: stack.len() as u64,
                    args: e["args"].clone(),
                    flows: Vec::new(),
                    ends_flows: Vec::new(),
                });
            }
            "E" => {
                let mut s = open.get_mut(&lane(e)).and_then(Vec::pop).expect("an E closes a B on its lane");
                s.end = ts();
                assert!(s.end >= s.start, "{} ends before it starts", s.name);
                slices.push(s);
            }
            _ => {}
        }
    }
    assert!(open.values().all(Vec::is_empty), "a B never ended");
    slices
}
