//! `HOTPATH_*` values that are not UTF-8 are never silently treated as unset: each
//! is one warning line and the default stays, except paths, which take any bytes.
#![cfg(all(feature = "hotpath", unix))]

mod common;

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use common::{command, run, stderr, stdout};

fn raw(bytes: &[u8]) -> OsString {
    OsString::from_vec(bytes.to_vec())
}

#[test]
fn values_that_are_not_utf8_warn_once_each() {
    let out = run(command("case_exit_paths")
        .env("HOTPATH_OUTPUT_FORMAT", raw(b"json\xff"))
        .env("HOTPATH_LIMIT", raw(b"1\xff"))
        .env("HOTPATH_FOCUS", raw(b"work\xff"))
        .env("HOTPATH_METRICS_PORT", raw(b"\xff")));
    assert!(out.status.success());
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("[hotpath] warning: ")).collect();
    assert_eq!(warnings.len(), 4, "{err}");
    for (warning, name) in warnings.iter().zip(["OUTPUT_FORMAT", "LIMIT", "FOCUS", "METRICS_PORT"]) {
        assert!(
            warning.contains(&format!("HOTPATH_{name}=")) && warning.contains(" is not valid UTF-8; using "),
            "{err}"
        );
    }
    // The defaults: a table with both functions.
    assert!(stdout(&out).contains("| case_exit_paths::fallible "), "{}", stdout(&out));
    assert!(stdout(&out).contains("| case_exit_paths::work "));
}

#[test]
fn an_output_path_that_is_not_utf8_is_still_a_path() {
    let dir = std::env::temp_dir().join(format!("hotpath-env-raw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut path = dir.clone().into_os_string().into_vec();
    path.extend(b"/report-\xff.json");
    let path = std::path::PathBuf::from(OsString::from_vec(path));
    let out = run(command("case_exit_paths").env("HOTPATH_OUTPUT_FORMAT", "json").env("HOTPATH_OUTPUT_PATH", &path));
    assert!(out.status.success());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&path).unwrap().contains("\"schema_version\""));
    std::fs::remove_dir_all(&dir).unwrap();
}
