//! `Format` and `Section` as a hotpath-rs 0.30.3 program matches on them, in both
//! modes (`--features hotpath` and `--no-default-features`). `Format` has the seed
//! system's four variants and no `#[non_exhaustive]`, so a match without a wildcard
//! compiles. `Section` has the seed's 15 variants plus `TokioRuntime` (and whatever
//! sections come after) and stays `#[non_exhaustive]`; the migration note's one-line fix is a `_ =>` arm, which
//! compiles against both crates.

use hotpath::{Format, Section};

/// No wildcard: this stops compiling if `Format` gains a variant or the attribute.
fn format_name(format: Format) -> &'static str {
    match format {
        Format::Table => "table",
        Format::Json => "json",
        Format::JsonPretty => "json-pretty",
        Format::None => "none",
    }
}

/// The seed system's 15 variants, then the documented `_` arm.
fn seed_short_name(section: Section) -> Option<&'static str> {
    Some(match section {
        Section::FunctionsTiming => "timing",
        Section::FunctionsAlloc => "alloc",
        Section::FunctionsCpu => "cpu",
        Section::FunctionsIcount => "icount",
        Section::Channels => "channels",
        Section::Streams => "streams",
        Section::Futures => "futures",
        Section::RwLocks => "rw_locks",
        Section::Mutexes => "mutexes",
        Section::Sql => "sql",
        Section::Http => "http",
        Section::Server => "server",
        Section::Io => "io",
        Section::Threads => "threads",
        Section::Debug => "debug",
        _ => return None,
    })
}

#[test]
fn format_matches_exhaustively() {
    for name in ["table", "json", "json-pretty", "none"] {
        let format: Format = name.parse().unwrap();
        assert_eq!(format_name(format), name);
    }
    assert_eq!(format_name(Format::default()), "table");
}

#[test]
fn section_has_the_seed_variants_and_tokio_runtime() {
    let mut beyond_seed = Vec::new();
    for section in Section::all() {
        match seed_short_name(section) {
            Some(short) => assert_eq!(short, section.short_name(), "{section:?}"),
            None => beyond_seed.push(section),
        }
    }
    // Every seed variant is there; the others (`TokioRuntime`, and any section added
    // since) are the reason for the `_` arm.
    assert_eq!(Section::all().len() - beyond_seed.len(), 15, "the seed's 15 variants");
    assert!(beyond_seed.contains(&Section::TokioRuntime));
}
