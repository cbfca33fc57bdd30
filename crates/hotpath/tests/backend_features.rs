//! A program wrapping tokio values without hotpath's `tokio` feature: it builds and
//! runs with the `hotpath` feature off; with it on, the build fails with errors that
//! point at each macro call and name the feature to enable (issue 19.3); with that
//! feature added, it builds and runs.

use std::path::Path;
use std::process::{Command, Output};

fn cargo(args: &[&str]) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .arg("--manifest-path")
        .arg(root.join("tests/fixtures/backend_off/Cargo.toml"))
        .env("CARGO_TARGET_DIR", root.join("target/fixtures"))
        .env("HOTPATH_METRICS_SERVER_OFF", "1")
        .env("HOTPATH_OUTPUT_FORMAT", "none")
        .output()
        .expect("cargo runs")
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
