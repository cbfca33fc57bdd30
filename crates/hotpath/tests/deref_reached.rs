//! A wrapped lock or channel half reached through `Deref` (a `&wrapped` passed where the
//! backend's own type is expected) is flagged: its row counts the derefs and the
//! printed section names it with the fix. Ordinary use of the wrappers, their
//! non-locking methods included, derefs nothing.
#![cfg(feature = "hotpath")]

mod common;

use common::{command, json_report, run, stdout};
use serde_json::Value;

fn row<'a>(report: &'a Value, section: &str, name: &str) -> &'a Value {
    report[section]["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["name"] == name))
        .unwrap_or_else(|| panic!("no {section} row {name} in {report:#}"))
}

fn json(mode: &str) -> Value {
    let out = run(command("case_derefs").arg(mode).env("HOTPATH_OUTPUT_FORMAT", "json"));
    assert!(out.status.success(), "{}", common::stderr(&out));
    json_report(&out)
}

fn table(mode: &str) -> String {
    let out = run(command("case_derefs").arg(mode));
    assert!(out.status.success(), "{}", common::stderr(&out));
    stdout(&out)
}

#[test]
fn coerced_references_are_counted_and_flagged_with_the_fix() {
    let report = json("coerced");
    let total = row(&report, "mutexes", "total");
    assert_eq!(total["derefs"], 47);
    // The first and the last lock went through the wrapper; the 47 others did not.
    assert_eq!(total["lock"]["acquisitions"], 2);
    let config = row(&report, "rw_locks", "config");
    assert_eq!(config["derefs"], 47);
    assert_eq!(config["reads"]["acquisitions"], 0);
    let results = row(&report, "channels", "results");
    assert_eq!(results["derefs"], 47);
    assert_eq!((results["sent"].as_u64(), results["received"].as_u64()), (Some(0), Some(47)));

    let text = table("coerced");
    for (name, fix) in [
        ("total", "&hotpath::wrap::std::sync::Mutex<u64>"),
        ("config", "&hotpath::wrap::std::sync::RwLock<u8>"),
        ("results", "hotpath::wrap::std::sync::mpsc::...<u64>"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("WARNING `{name}` was reached through Deref 47 times")))
            .unwrap_or_else(|| panic!("no warning for {name} in:\n{text}"));
        assert!(line.contains(&format!("Fix: take `{fix}` in signatures")), "{line}");
    }
    // Under its section's header line, above the table.
    let header = text.lines().position(|l| l.starts_with("mutexes - ")).expect("mutexes header");
    assert!(text.lines().nth(header + 1).unwrap().starts_with("WARNING `total`"), "{text}");
}

#[test]
fn the_wrapper_types_deref_nothing() {
    let report = json("proper");
    let total = row(&report, "mutexes", "total");
    assert_eq!((total["derefs"].as_u64(), total["lock"]["acquisitions"].as_u64()), (Some(0), Some(49)));
    let config = row(&report, "rw_locks", "config");
    assert_eq!((config["derefs"].as_u64(), config["reads"]["acquisitions"].as_u64()), (Some(0), Some(47)));
    let results = row(&report, "channels", "results");
    assert_eq!(results["derefs"], 0);
    assert_eq!((results["sent"].as_u64(), results["received"].as_u64()), (Some(47), Some(47)));
    let text = table("proper");
    assert!(!text.contains("WARNING"), "{text}");
}
