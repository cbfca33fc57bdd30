//! A program wrapping tokio values without hotpath's `tokio` feature: it builds and
//! runs with the `hotpath` feature off; with it on, the build fails with errors that
//! point at each macro call and name the feature to enable (issue 19.3); with that
//! feature added, it builds and runs.

mod common;

use std::process::Output;

fn cargo(args: &[&str]) -> Output {
    common::fixtures::cargo("backend_off", args).env("HOTPATH_OUTPUT_FORMAT", "none").output().expect("cargo runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_backend_without_its_feature_is_an_error_that_names_the_feature() {
    let off = cargo(&["run", "--quiet"]);
    assert!(off.status.success(), "{}", text(&off.stderr));
    assert_eq!(text(&off.stdout), "value=8\n");

    let on = cargo(&["build", "--quiet", "--features", "hotpath"]);
    let err = text(&on.stderr);
    assert!(!on.status.success(), "built without hotpath/tokio:\n{err}");
    for expected in [
        "`hotpath::channel!` cannot wrap `(tokio::sync::mpsc::Sender<u32>, tokio::sync::mpsc::Receiver<u32>)`",
        "tokio::sync::{mpsc, oneshot, broadcast, watch} needs hotpath's `tokio` feature",
        "`hotpath::mutex!` cannot wrap `tokio::sync::Mutex<u32>`",
        "tokio::sync::Mutex `tokio`",
        "hotpath::wrap::tokio::sync::mpsc::Sender<T>",
        "src/main.rs:6:",
        "src/main.rs:8:",
    ] {
        assert!(err.contains(expected), "missing {expected:?} in:\n{err}");
    }

    let fixed = cargo(&["run", "--quiet", "--features", "hotpath-tokio"]);
    assert!(fixed.status.success(), "{}", text(&fixed.stderr));
    assert_eq!(text(&fixed.stdout), "value=8\n");
}
