//! The timeline (flight recorder) of a program of known shape (`tests/programs/timeline.rs`),
//! written at exit and by triggers, read back with Perfetto's own schema (the `perfetto`
//! package's `perfetto_trace_pb2`, through `tests/timeline/decode_perfetto.py`) and as
//! Chrome JSON.
#![cfg(feature = "hotpath")]

mod common;
#[path = "timeline/decode.rs"]
mod decode;

use std::collections::BTreeMap;
use std::path::Path;

use decode::Slice;
use serde_json::Value;

/// Runs the program with the timeline written to `trace` at exit and the triggers'
/// files going to `trace`'s directory; returns the JSON report.
fn run(trace: &Path, args: &[&str], env: &[(&str, &str)]) -> Value {
    let mut cmd = common::command("case_timeline");
    cmd.args(args)
        .env("HOTPATH_OUTPUT_FORMAT", "json")
        .env("HOTPATH_TIMELINE_OUTPUT", trace)
        .env("HOTPATH_TIMELINE_DIR", trace.parent().unwrap());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = common::run(&mut cmd);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("a JSON report")
}

fn named<'a>(slices: &'a [Slice], name: &str) -> Vec<&'a Slice> {
    slices.iter().filter(|s| s.name.ends_with(name)).collect()
}

#[test]
fn the_perfetto_trace_has_the_program_shape() {
    let Some(python) = decode::python() else { return };
    let dir = decode::Scratch::new(line!());
    let trace = dir.path().join("run.pftrace");
    let unix_ns = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as f64;
    let began = unix_ns();
    let report = run(&trace, &[], &[]);
    let ended = unix_ns();
    let files = report["meta"]["timeline"]["files"].as_array().expect("meta.timeline.files");
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(files[0]["reason"], "exit");
    assert_eq!(files[0]["path"], trace.display().to_string());
    // A trace names the program's functions: readable by its owner only.
    #[cfg(unix)]
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&trace).unwrap().permissions()) & 0o777,
        0o600
    );
    let decode::Decoded { slices, instants, counters, raw: decoded } = decode::perfetto(&python, &trace);
    assert_eq!(files[0]["events"].as_u64().unwrap() as usize, slices.len() + instants.len() + counters.len());

    // Each measured call is one slice on its thread's track; children lie inside their parents.
    let (outer, inner) = (named(&slices, "::outer"), named(&slices, "::inner"));
    assert_eq!((outer.len(), inner.len()), (5, 10));
    assert!(outer.iter().chain(&inner).all(|s| s.thread == "main"));
    for child in &inner {
        let parent = outer.iter().find(|p| p.start <= child.start && child.end <= p.end);
        let parent = parent.unwrap_or_else(|| panic!("{child:?} lies inside no outer call"));
        assert_eq!(child.depth, parent.depth + 1);
    }

    // One async call polled on two threads: both polls carry the same call and a flow.
    let polls = named(&slices, "::hop");
    assert_eq!(polls.len(), 2, "{polls:?}");
    let (first, last) = (
        polls.iter().find(|p| p.thread == "poller-a").unwrap(),
        polls.iter().find(|p| p.thread == "poller-b").unwrap(),
    );
    assert_eq!(first.args["call"], last.args["call"]);
    assert_eq!((first.args["first_poll"].as_u64(), last.args["last_poll"].as_u64()), (Some(1), Some(1)));
    assert_eq!(first.flows.len(), 1);
    assert_eq!(first.flows, last.ends_flows, "the polls are one flow");

    // Every received message has a flow from its send.
    let sends = named(&instants, "send jobs");
    let receives = named(&instants, "recv jobs");
    assert_eq!((sends.len(), receives.len()), (8, 8));
    assert!(sends.iter().all(|s| s.thread == "producer") && receives.iter().all(|r| r.thread == "consumer"));
    for receive in &receives {
        let send = sends.iter().find(|s| s.flows == receive.ends_flows).expect("a send starts the receive's flow");
        assert!(send.start <= receive.start);
    }

    // The waiter waits for the lock the holder holds, then holds it itself.
    let waits = named(&slices, "wait ledger");
    assert_eq!(waits.len(), 1, "{waits:?}");
    let holds: Vec<&Slice> = slices.iter().filter(|s| s.track == "holds ledger").collect();
    let by_thread = |t: &str| holds.iter().find(|h| h.thread == t).copied();
    let (holder, waiter) =
        (by_thread("holder").expect("the holder's hold"), by_thread("waiter").expect("the waiter's"));
    assert_eq!(waits[0].thread, "waiter");
    assert!(holder.start <= waits[0].start && waits[0].end <= waiter.start, "wait before hold");
    assert!(holder.end <= waiter.start, "one holder at a time");

    // The gauge moves as the program set it.
    let depth: Vec<f64> = counters.iter().filter(|(n, _)| n == "depth").map(|(_, v)| *v).collect();
    assert_eq!(depth, [1.0, 5.0, 3.0]);

    // The clock snapshot names BOOTTIME (6), MONOTONIC (3) and REALTIME (1).
    for clock in ["6", "3", "1"] {
        assert!(decoded["clocks"][clock].as_u64().is_some_and(|t| t > 0), "clock {clock}: {}", decoded["clocks"]);
    }
    // Events are on BOOTTIME, the trace's clock: through the snapshot each one maps to
    // a wall-clock time while the program ran (this test's own clock readings, taken
    // before it started and after it ended), and none is after the snapshot.
    let clock = |id: &str| decoded["clocks"][id].as_u64().unwrap() as f64;
    let (boot, real) = (clock("6"), clock("1"));
    for event in slices.iter().chain(&instants) {
        let wall = event.start - boot + real;
        assert!(began <= wall && wall <= ended, "{event:?} at {wall} outside the run [{began}, {ended}]");
        assert!(event.end <= boot, "{event:?} ends after the clock snapshot ({boot})");
    }
}

/// (thread, name, depth) → count: the shape of a run, the same in every run.
fn shape(slices: &[Slice]) -> BTreeMap<(String, String, u64), usize> {
    let mut counts = BTreeMap::new();
    for s in slices.iter().filter(|s| s.track.is_empty()) {
        *counts.entry((s.thread.clone(), s.name.clone(), s.depth)).or_default() += 1;
    }
    counts
}

#[test]
fn the_chrome_json_has_the_same_slices() {
    let Some(python) = decode::python() else { return };
    let dir = decode::Scratch::new(line!());
    let (proto, json) = (dir.path().join("run.pftrace"), dir.path().join("run.json"));
    run(&proto, &[], &[]);
    let report = run(&json, &[], &[]);
    assert_eq!(report["meta"]["timeline"]["files"][0]["path"], json.display().to_string());
    let from_proto = decode::perfetto(&python, &proto).slices;
    let from_json = decode::chrome(&json);
    assert!(!from_json.is_empty());
    assert_eq!(shape(&from_json), shape(&from_proto));
    let holds = |s: &[Slice]| s.iter().filter(|s| s.track.starts_with("holds ledger")).count();
    assert_eq!(holds(&from_json), holds(&from_proto));
}

#[test]
fn a_trigger_writes_one_file_per_breach_with_the_breaching_call() {
    let Some(python) = decode::python() else { return };
    let dir = decode::Scratch::new(line!());
    let report = run(&dir.path().join("exit.pftrace"), &["3"], &[("HOTPATH_TIMELINE_MIN_INTERVAL_MS", "0")]);
    let files = report["meta"]["timeline"]["files"].as_array().unwrap();
    let triggered: Vec<&Value> = files.iter().filter(|f| f["reason"] == "slow_call").collect();
    assert_eq!(triggered.len(), 3, "one file per breach: {files:?}");
    for (i, file) in triggered.iter().enumerate() {
        assert!(file["subject"].as_str().unwrap().contains("::slow took"), "{file}");
        #[cfg(unix)]
        {
            let meta = std::fs::metadata(file["path"].as_str().unwrap()).unwrap();
            assert_eq!(std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o777, 0o600);
        }
        let slices = decode::perfetto(&python, Path::new(file["path"].as_str().unwrap())).slices;
        let slow = named(&slices, "::slow");
        // The i-th file is written after the i-th breach: it holds that call and those before.
        assert!(slow.len() > i, "file {i} lacks its breaching call: {slow:?}");
        assert!(slow.iter().all(|s| s.end - s.start > 20e6), "every slow call breached: {slow:?}");
    }

    // Within the rate limit, the later breaches are counted, not written.
    let dir = decode::Scratch::new(line!());
    let report = run(&dir.path().join("exit.pftrace"), &["3"], &[("HOTPATH_TIMELINE_MIN_INTERVAL_MS", "600000")]);
    let timeline = &report["meta"]["timeline"];
    let triggered = timeline["files"].as_array().unwrap().iter().filter(|f| f["reason"] == "slow_call").count();
    assert_eq!((triggered, timeline["suppressed"].as_u64()), (1, Some(2)));
    let written = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(written, 2, "the triggered file and the exit file");
}

#[test]
fn the_environment_trigger_names_a_function_and_a_panic_writes_a_trace() {
    let Some(python) = decode::python() else { return };
    let dir = decode::Scratch::new(line!());
    let env = [("HOTPATH_TIMELINE_TRIGGER", "outer>1ns"), ("HOTPATH_TIMELINE_MIN_INTERVAL_MS", "0")];
    let report = run(&dir.path().join("exit.pftrace"), &["0", "panic"], &env);
    let files = report["meta"]["timeline"]["files"].as_array().unwrap();
    let reasons: Vec<&str> = files.iter().map(|f| f["reason"].as_str().unwrap()).collect();
    // Five calls of `outer`, each over 1 ns; the limit of 10 files is not reached.
    assert_eq!(reasons.iter().filter(|r| **r == "slow_call").count(), 5, "{reasons:?}");
    let panic = files.iter().find(|f| f["reason"] == "panic").expect("a panic trace");
    assert!(panic["subject"].as_str().unwrap().contains("doomed on purpose"), "{panic}");
    let slices = decode::perfetto(&python, Path::new(panic["path"].as_str().unwrap())).slices;
    assert_eq!(named(&slices, "::outer").len(), 5, "the panic's trace holds the run so far");
}

#[test]
fn a_slow_consumer_writes_a_trace_naming_its_channel() {
    let dir = decode::Scratch::new(line!());
    let mut cmd = common::command("slow_consumer");
    cmd.env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_TIMELINE", "on").env("HOTPATH_TIMELINE_DIR", dir.path());
    let out = common::run(&mut cmd);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = common::stdout(&out);
    let at = stdout.find("{\"schema_version\"").expect("the JSON report after the program's line");
    let report: Value = serde_json::from_str(&stdout[at..]).unwrap();
    let files = report["meta"]["timeline"]["files"].as_array().unwrap();
    let slow = files.iter().find(|f| f["reason"] == "slow_consumer").expect("a slow-consumer trace");
    assert_eq!(slow["subject"], "jobs");
    assert!(Path::new(slow["path"].as_str().unwrap()).is_file());
}

#[test]
fn off_by_default_and_a_bad_setting_is_one_warning() {
    let mut cmd = common::command("case_timeline");
    cmd.env("HOTPATH_OUTPUT_FORMAT", "json");
    let report: Value = serde_json::from_slice(&common::run(&mut cmd).stdout).unwrap();
    assert!(report["meta"].get("timeline").is_none(), "no timeline unless asked");

    let mut cmd = common::command("case_timeline");
    cmd.env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_TIMELINE_SIZE", "lots").env("HOTPATH_TIMELINE", "on");
    let out = common::run(&mut cmd);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("HOTPATH_TIMELINE_SIZE").count(), 1, "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["meta"]["timeline"]["events_per_thread"], 32768, "the default size");
}

#[test]
fn streams_io_trackers_and_tokio_workers_are_on_the_timeline() {
    let dir = decode::Scratch::new(line!());
    let trace = dir.path().join("agent.json");
    let mut cmd = common::command("case_agent");
    cmd.arg("1").env("HOTPATH_OUTPUT_FORMAT", "none").env("HOTPATH_TIMELINE_OUTPUT", &trace);
    let out = common::run(&mut cmd);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&std::fs::read(&trace).unwrap()).unwrap();
    let events = json["traceEvents"].as_array().unwrap();
    let count = |ph: &str, name: &str| events.iter().filter(|e| e["ph"] == ph && e["name"] == name).count();
    let items = count("i", "item numbers");
    assert!(items >= 3 && items % 3 == 0, "three items per stream: {items}");
    assert!(count("i", "val! last-fetch") > 0, "val! marks");
    assert!(count("C", "round") > 0, "the gauge");
    let writes: Vec<&Value> = events.iter().filter(|e| e["ph"] == "B" && e["name"] == "log write").collect();
    assert!(!writes.is_empty() && writes.iter().all(|w| w["args"]["bytes"].as_u64().is_some_and(|b| b > 0)));
    // `main`'s block_on polls the awaited future; the spawned consumer receives on the
    // runtime's workers.
    let lanes: std::collections::HashMap<u64, &str> = events
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name")
        .map(|e| (e["tid"].as_u64().unwrap(), e["args"]["name"].as_str().unwrap()))
        .collect();
    let lane = |e: &&Value| lanes[&e["tid"].as_u64().unwrap()];
    let polls: Vec<&Value> = events.iter().filter(|e| e["ph"] == "B" && e["name"] == "fetch").collect();
    assert!(!polls.is_empty() && polls.iter().all(|p| lane(p) == "main"), "{lanes:?}");
    let receives: Vec<&Value> = events.iter().filter(|e| e["ph"] == "i" && e["name"] == "recv results").collect();
    assert!(!receives.is_empty() && receives.iter().all(|r| lane(r).starts_with("tokio-")), "{lanes:?}");
}
