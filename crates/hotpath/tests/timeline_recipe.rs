//! The README's "A slow request: get its timeline", verbatim: its handler is the one of
//! `examples/slow_request.rs`, and running that example with the recipe's variables
//! writes exactly one triggered trace, in `hotpath-timeline/` of the working directory,
//! named in the report, holding the slow call (decoded with Perfetto's schema).
#![cfg(feature = "hotpath")]

mod common;
// This test uses part of the decoder.
#[allow(dead_code)]
#[path = "timeline/decode.rs"]
mod decode;

use std::path::Path;

use serde_json::Value;

/// The fenced block after `<!-- recipe:NAME` in the README, and the one after it.
fn readme_blocks(name: &str) -> (String, String) {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap();
    let after = readme.split_once(&format!("<!-- recipe:{name}")).expect("the README has the recipe").1;
    let mut fences = after.split("```").skip(1).step_by(2);
    let strip = |b: &str| b.split_once('\n').map_or("", |(_, body)| body).to_string();
    (strip(fences.next().unwrap()), strip(fences.next().unwrap()))
}

#[test]
fn the_readme_slow_request_recipe_writes_one_trace_with_the_slow_call() {
    let (code, shell) = readme_blocks("slow-request");
    let example =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/slow_request.rs")).unwrap();
    let held = example.split_once("// recipe:slow-request-handler").unwrap().1;
    let held = held.split_once('\n').unwrap().1.split_once("// end recipe").unwrap().0;
    assert_eq!(code, held, "the README's handler is the example's, verbatim");

    // The recipe's command line: its variables, then `cargo run ... --example slow_request`.
    let line = shell.lines().next().unwrap();
    assert!(line.contains("--example slow_request"), "{line}");
    let vars: Vec<(&str, &str)> = line.split_whitespace().map_while(|w| w.split_once('=')).collect();
    assert_eq!(vars, [("HOTPATH_TIMELINE", "on")]);

    let Some(python) = decode::python() else { return };
    let dir = decode::Scratch::new(line!());
    let mut cmd = common::command("slow_request");
    cmd.current_dir(dir.path()).envs(vars).env("HOTPATH_OUTPUT_FORMAT", "json");
    let out = common::run(&mut cmd);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let report = common::json_report(&out);
    let files = report["meta"]["timeline"]["files"].as_array().expect("meta.timeline.files");
    let slow: Vec<&Value> = files.iter().filter(|f| f["reason"] == "slow_call").collect();
    assert_eq!(slow.len(), 1, "one breach, one file: {files:?}");
    assert!(slow[0]["subject"].as_str().unwrap().contains("handle"), "{}", slow[0]);
    // The path as the report names it: relative to the program's working directory.
    let path = &dir.path().join(slow[0]["path"].as_str().unwrap());
    assert_eq!(path.parent(), Some(dir.path().join("hotpath-timeline").as_path()), "{}", path.display());
    assert!(path.is_file(), "{}", path.display());
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(name.starts_with("hotpath-timeline-") && name.ends_with("-1-slow_call.pftrace"), "{name}");

    // The slow call is in it: its polls, the last ending over 50 ms after the first began.
    let polls: Vec<decode::Slice> =
        decode::perfetto(&python, path).slices.into_iter().filter(|s| s.name.ends_with("::handle")).collect();
    let calls = |s: &decode::Slice| s.args["call"].as_u64();
    let slow_call = polls.iter().find_map(|p| {
        let same: Vec<&decode::Slice> = polls.iter().filter(|q| calls(q) == calls(p)).collect();
        let first = same.iter().map(|s| s.start).fold(f64::INFINITY, f64::min);
        let last = same.iter().map(|s| s.end).fold(0.0, f64::max);
        (last - first > 50e6).then_some(same.len())
    });
    assert!(slow_call.is_some_and(|polls| polls >= 2), "the slow call, polled before and after its sleep: {polls:?}");
}
