//! A program feature named like one of hotpath's that is on while hotpath's is off
//! (`hotpath = []`, `hotpath-cpu = [..]` without `"hotpath/hotpath-cpu"`) is a compile
//! error at `#[hotpath::main]` naming the line to write, with profiling off and on
//! (issue 26.9). Features that forward, or are named otherwise, build and run; so does
//! a program that declares only some of hotpath's feature names (warnings denied).

mod common;

use std::process::Output;

fn cargo(args: &[&str]) -> Output {
    common::fixtures::cargo("unforwarded", args)
        .env("RUSTFLAGS", "-D warnings")
        .env("HOTPATH_OUTPUT_FORMAT", "none")
        .output()
        .expect("cargo runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_feature_that_forwards_nothing_is_an_error_naming_the_fix() {
    let off = cargo(&["run", "--quiet"]);
    assert!(off.status.success(), "{}", text(&off.stderr));
    assert_eq!(text(&off.stdout), "sum=8 profiling=false\n");

    let on = cargo(&["run", "--quiet", "--features", "alloc"]);
    assert!(on.status.success(), "{}", text(&on.stderr));
    assert_eq!(text(&on.stdout), "sum=8 profiling=true\n");

    for (feature, fix) in [
        ("hotpath", r#"[features] hotpath = ["hotpath/hotpath"]"#),
        ("hotpath-cpu", r#"[features] hotpath-cpu = ["hotpath", "hotpath/hotpath-cpu"]"#),
        ("hotpath-heap", r#"[features] hotpath-heap = ["hotpath", "hotpath/hotpath-heap"]"#),
    ] {
        let out = cargo(&["build", "--quiet", "--features", feature]);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "--features {feature} built:\n{err}");
        let said = format!("this crate's `{feature}` feature is on, but hotpath's `{feature}` feature is off");
        for expected in [said.as_str(), fix, "src/main.rs:6:"] {
            assert!(err.contains(expected), "--features {feature}: missing {expected:?} in:\n{err}");
        }
    }
}
