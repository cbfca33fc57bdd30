//! A real report has exactly the fields of the pinned golden report
//! (crates/hotpath-model/tests/golden/report_v1.json), section by section.
#![cfg(feature = "hotpath")]

mod common;

use std::collections::BTreeSet;

use serde_json::Value;

use common::{command, json_report, run};

fn paths(value: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            let path = format!("{prefix}.{k}");
            out.insert(path.clone());
            paths(v, &path, out);
        }),
        Value::Array(items) => items.iter().for_each(|v| paths(v, &format!("{prefix}[]"), out)),
        _ => {}
    }
}

fn golden() -> Value {
    serde_json::from_str(include_str!("../../hotpath-model/tests/golden/report_v1.json")).unwrap()
}

/// Field paths of `value`, keeping those under the top-level keys `keep` accepts.
fn fields(value: &Value, keep: impl Fn(&str) -> bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    paths(value, "", &mut out);
    out.retain(|p| keep(p.trim_start_matches('.').split(['.', '[']).next().unwrap_or("")));
    out
}

#[test]
fn real_report_has_the_golden_fields() {
    let golden = golden();
    let out = run(command("case_exit_paths")
        .env("HOTPATH_OUTPUT_FORMAT", "json")
        .env("HOTPATH_PERCENTILES", "50,95,99.9")
        .env("HOTPATH_FOCUS", "/^case_/")
        .env("HOTPATH_LIMIT", "x"));
    let real = json_report(&out);
    // This program uses no io! wrapper; the io section is checked below.
    assert_eq!(fields(&real, |key| key != "io"), fields(&golden, |key| key != "io"));
    assert_eq!(real["schema_version"], golden["schema_version"]);
}

#[test]
fn real_io_section_has_the_golden_fields() {
    let out =
        run(command("basic_io_async").env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_PERCENTILES", "50,95,99.9"));
    let real = json_report(&out);
    assert_eq!(fields(&real, |key| key == "io"), fields(&golden(), |key| key == "io"));
}
