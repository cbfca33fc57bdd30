//! hotpath-rs 0.30 variables this crate has no other place for: the one that maps
//! onto a setting here (`HOTPATH_ALLOC_CUMULATIVE`), the one honoured by doing
//! nothing (`HOTPATH_DISABLE_HINTS`: no hints are printed), and those with no
//! counterpart (`UNUSED`), each answered by one warning line saying what is in use
//! instead. The TUI's variables are read by `hotpath console` and the policy ones by
//! `hotpath compare`, so a program says nothing about them.

use super::vars::{flag, text, Variable};

/// Applied after the report variables, in this order.
pub(super) const SEED_VARIABLES: &[Variable] = &[
    Variable {
        name: "HOTPATH_ALLOC_CUMULATIVE",
        apply: |c, v| {
            c.options.alloc_inclusive = flag(v)?;
            Ok(())
        },
        kept: |c| if c.options.alloc_inclusive { "inclusive" } else { "exclusive" }.into(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_ALLOC_METRIC",
        apply: |_, v| match text(v)?.trim() {
            "bytes" | "count" => {
                Err("is not used: functions-alloc shows bytes and allocation counts side by side".into())
            }
            _ => Err("is not bytes or count (and is not used: both are shown)".into()),
        },
        kept: |_| "bytes and counts".into(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_CPU_INCLUSIVE",
        apply: |_, v| {
            flag(v)?;
            Err("is not used: functions-cpu shows % Self and % Inclusive side by side".into())
        },
        kept: |_| "both".into(),
        secret: false,
    },
    Variable {
        name: "HOTPATH_DISABLE_HINTS",
        // Honoured as it is: the report never prints a hint or an advert.
        apply: |_, v| flag(v).map(|_| ()),
        kept: |_| "no hints (none are printed)".into(),
        secret: false,
    },
];

/// A variable with no counterpart here: any value is answered by `problem`.
pub(super) struct Unused {
    pub(super) name: &'static str,
    pub(super) problem: &'static str,
    /// What is in use instead, for the warning's "using ...".
    pub(super) kept: &'static str,
    pub(super) secret: bool,
}

const NO_CLOUD: &str = "is not supported: hotpath has no cloud upload";
const CLOUD_KEPT: &str = "no upload (compare saved JSON reports with `hotpath compare`)";
const NO_META: &str = "is not used: hotpath-rs's self-profiling (hotpath-meta) has no counterpart here";
const NO_SAMPLY: &str = "is not used: hotpath-cpu samples in-process, without samply";
const SAMPLY_KEPT: &str = "in-process sampling (HOTPATH_CPU_HZ, HOTPATH_CPU_OUTPUT)";
const BUILD_ONLY: &str = "is not used: a build setting of hotpath-rs with no counterpart here";
const NO_DRAIN: &str = "is not used: recorders are read when a report or live snapshot is built, without a sweep";

const fn unused(name: &'static str, problem: &'static str, kept: &'static str) -> Unused {
    Unused { name, problem, kept, secret: false }
}

/// Applied last, in this order.
pub(super) const UNUSED: &[Unused] = &[
    unused("HOTPATH_ALLOC_MAX_DEPTH", BUILD_ONLY, "no depth limit"),
    unused("HOTPATH_KEEP_INLINE", BUILD_ONLY, "measured functions only"),
    unused("HOTPATH_SAMPLY_BIN", NO_SAMPLY, SAMPLY_KEPT),
    unused("HOTPATH_SAMPLY_WRAPPER_BIN", NO_SAMPLY, SAMPLY_KEPT),
    unused("HOTPATH_DISABLE_SAMPLY_LOAD", NO_SAMPLY, SAMPLY_KEPT),
    unused("HOTPATH_DRAIN_INTERVAL_MS", NO_DRAIN, "no sweep"),
    unused("HOTPATH_DRAIN_INTERVAL", NO_DRAIN, "no sweep"),
    unused("HOTPATH_UPLOAD", NO_CLOUD, CLOUD_KEPT),
    unused("HOTPATH_API_URL", NO_CLOUD, CLOUD_KEPT),
    Unused { name: "HOTPATH_API_TOKEN", problem: NO_CLOUD, kept: CLOUD_KEPT, secret: true },
    unused("HOTPATH_UPLOAD_RESPONSE_PATH", NO_CLOUD, CLOUD_KEPT),
    unused("HOTPATH_SOURCE_ROOT", NO_CLOUD, CLOUD_KEPT),
    unused("HOTPATH_DEV_LOG_PATH", NO_META, "nothing"),
    unused("HOTPATH_META_SHUTDOWN_MS", NO_META, "nothing"),
    unused("HOTPATH_META_OUTPUT_PATH", NO_META, "nothing"),
    unused("HOTPATH_META_REPORT", NO_META, "nothing"),
];
