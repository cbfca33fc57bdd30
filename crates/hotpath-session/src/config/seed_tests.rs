//! hotpath-rs 0.30's variables (SEED-SYSTEM-API.md §2.5): each one honoured, or
//! answered by exactly one warning line; the tokens protect their surfaces.

use std::ffi::OsString;

use super::*;
use std::net::{IpAddr, Ipv4Addr};

fn resolve(vars: &[(&str, &str)]) -> (Config, Vec<String>) {
    Config::resolve(&MainConfig::new("m"), |k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| OsString::from(v)))
}

/// The one warning about `name`, or a failure naming them all.
fn warning_about(warnings: &[String], name: &str) -> String {
    let about: Vec<&String> =
        warnings.iter().filter(|w| w.starts_with(&format!("{name}=")) || w.starts_with(&format!("{name} "))).collect();
    assert_eq!(about.len(), 1, "{name}: {warnings:?}");
    about[0].clone()
}

#[test]
fn variables_without_a_counterpart_warn_once_and_name_what_is_used() {
    for (name, value, says) in [
        ("HOTPATH_MCP_PORT", "6771", "using HOTPATH_METRICS_PORT (6770)"),
        ("HOTPATH_PROMETHEUS_PORT", "6772", "using HOTPATH_METRICS_PORT (6770)"),
        ("HOTPATH_PROMETHEUS_HOST", "0.0.0.0", "using HOTPATH_METRICS_HOST (127.0.0.1)"),
        ("HOTPATH_PROMETHEUS_FAST_BUCKETS", "0.001,0.01", "fixed bounds"),
        ("HOTPATH_PROMETHEUS_SLOW_BUCKETS", "1,10", "fixed bounds"),
        ("HOTPATH_ALLOC_METRIC", "count", "side by side"),
        ("HOTPATH_CPU_INCLUSIVE", "1", "side by side"),
        ("HOTPATH_ALLOC_MAX_DEPTH", "8", "build setting"),
        ("HOTPATH_SAMPLY_BIN", "/usr/bin/samply", "HOTPATH_CPU_HZ"),
        ("HOTPATH_DRAIN_INTERVAL_MS", "10", "without a sweep"),
        ("HOTPATH_UPLOAD", "1", "no cloud upload"),
        ("HOTPATH_API_URL", "https://example.test", "no cloud upload"),
        ("HOTPATH_META_REPORT", "all", "self-profiling"),
    ] {
        let (_, w) = resolve(&[(name, value)]);
        let line = warning_about(&w, name);
        assert!(line.contains(says) && !line.contains('\n'), "{line}");
    }
    // A secret stays out of the warning.
    let (_, w) = resolve(&[("HOTPATH_API_TOKEN", "hunter2")]);
    let line = warning_about(&w, "HOTPATH_API_TOKEN");
    assert!(line.contains("(value hidden)") && !line.contains("hunter2"), "{line}");
}

#[test]
fn seed_values_that_mean_the_same_here_are_honoured_quietly() {
    let (c, w) = resolve(&[
        ("HOTPATH_ALLOC_CUMULATIVE", "true"),
        ("HOTPATH_DISABLE_HINTS", "1"),
        ("HOTPATH_METRICS_SERVER_ON", "1"),
        ("HOTPATH_METRICS_HOST", "http://localhost"),
        // The same port and host as the live server's: nothing to say.
        ("HOTPATH_METRICS_PORT", "7001"),
        ("HOTPATH_MCP_PORT", "7001"),
        ("HOTPATH_PROMETHEUS_HOST", "127.0.0.1"),
        // Read by `hotpath console` and `hotpath compare`, not by the program.
        ("HOTPATH_TUI_TAB", "2"),
        ("HOTPATH_POLICY_PATH", "p.toml"),
    ]);
    assert!(w.is_empty(), "{w:?}");
    assert!(c.options.alloc_inclusive && c.server.force_on);
    assert_eq!((c.server.host, c.server.port), (IpAddr::V4(Ipv4Addr::LOCALHOST), 7001));
    let (_, w) = resolve(&[("HOTPATH_DISABLE_HINTS", "maybe")]);
    assert!(warning_about(&w, "HOTPATH_DISABLE_HINTS").contains("is not 1/true"), "{w:?}");
}

#[test]
fn every_token_variable_guards_the_server() {
    for name in
        ["HOTPATH_AUTH_TOKEN", "HOTPATH_METRICS_AUTH_TOKEN", "HOTPATH_PROMETHEUS_AUTH_TOKEN", "HOTPATH_MCP_AUTH_TOKEN"]
    {
        let (c, w) = resolve(&[(name, "t0k")]);
        assert!(w.is_empty(), "{w:?}");
        for surface in Surface::ALL {
            assert_eq!(c.server.tokens_for(surface), [(name, "t0k")], "{name} on {surface:?}");
        }
        // A wider bind is allowed with any of them.
        let (c, w) = resolve(&[(name, "t0k"), ("HOTPATH_METRICS_HOST", "0.0.0.0")]);
        assert!(w.is_empty() && !c.server.host.is_loopback(), "{w:?}");
        // Unusable values fail closed, whichever variable holds them.
        let (c, w) = resolve(&[(name, "")]);
        assert!(c.server.enabled && c.server.refuse_all, "{name}");
        assert!(warning_about(&w, name).contains("answers every request with 401"), "{w:?}");
        let (c, _) = resolve(&[(name, "two words")]);
        assert!(!c.server.enabled, "{name}");
    }
}
