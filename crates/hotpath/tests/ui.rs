//! Compile-time behaviour of the macros, with trybuild:
//! - `ui/`: bad arguments and misuse are compile errors at the argument's span,
//!   identical with the `hotpath` feature on and off (one parser checks both), every
//!   bad parameter of a call reported at once;
//! - `ui-pass/`: every form hotpath-rs programs use compiles and runs in both modes;
//! - `ui-off/`: without the feature nothing needs `Debug`; with it, `log = true` on a
//!   type without `Debug` is a compile error at the call (the same files);
//! - `ui-on/`: with the feature, errors say the fix: which feature enables a backend,
//!   and the `hotpath::wrap` path of a wrapped type.
//!
//! Not in the all-features run: trybuild builds the crate in a target dir of its own,
//! with the test run's features, so that run would compile every HTTP and SQL library
//! again for macros that do not depend on them. scripts/test runs this file with
//! `hotpath-callgrind` (marker-function expansions) instead.
#![cfg(not(feature = "sqlx"))]

#[test]
fn macro_argument_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

#[test]
fn every_seed_form_compiles_and_runs() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui-pass/*.rs");
}

#[test]
fn log_needs_debug_only_with_the_feature() {
    let t = trybuild::TestCases::new();
    if cfg!(feature = "hotpath") {
        t.compile_fail("tests/ui-off/*.rs");
    } else {
        t.pass("tests/ui-off/*.rs");
    }
}

/// The expected messages list the implementations of the enabled backends (std and
/// tokio, which the tests always enable), so other backend features change them.
#[cfg(all(
    feature = "hotpath",
    not(any(
        feature = "futures",
        feature = "crossbeam",
        feature = "flume",
        feature = "async-channel",
        feature = "parking_lot",
        feature = "async-lock"
    ))
))]
#[test]
fn errors_with_the_feature_say_the_fix() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui-on/*.rs");
}
