//! Instruction counts under Callgrind (`icount` feature; the facade's
//! `hotpath-callgrind`), x86_64 Linux.
//!
//! With the feature, the macros run every measured body inside a marker function of
//! its own, `__hotpath_cg_<tag>` (the tag is also in the site), so that Callgrind's
//! call graph has each measured function's inclusive instruction count under a name
//! hotpath can find. At the session's start a client request tells whether Callgrind
//! runs the program and zeroes its counters; at the report another asks for a dump,
//! which is read back (`parse`, `graph`) and joined with the sites (`section`).
//!
//! - `valgrind`: the client requests.
//! - `dump`: the output file template and finding the dump.
//! - `parse`, `graph`: the callgrind format and the counts per marker.
//! - `section`: the `functions-icount` rows.
//! - `marked`: async bodies polled through their marker.
//! - `merge`: `HOTPATH_MERGE_REPORT`.
//!
//! Under Callgrind time sampling is off (sections count, durations are not measured)
//! and the clock is frozen, so nothing depends on time and the counts are the same
//! from run to run.

mod dump;
mod graph;
mod marked;
mod merge;
mod parse;
mod section;
mod valgrind;

use std::ffi::CString;
use std::io::BufReader;
use std::path::PathBuf;
use std::sync::Mutex;

use hotpath_model::{FunctionsIcount, Report};

pub use marked::Marked;
use section::Counts;
use valgrind::Host;

use crate::options::Options;
use crate::record::SiteTotals;

/// What `start` found, for the rest of the session.
struct State {
    host: Host,
    /// The expanded `--callgrind-out-file` template, absolute.
    base: PathBuf,
    /// The dump's trigger: `hotpath-<pid>-<start time>`, unique to this session.
    reason: CString,
    /// The dump is asked for and read once, at the session's final report.
    counts: Option<Result<Counts, String>>,
}

/// The current session's; replaced when a later session starts (its counters are
/// zeroed again). Locked only at a session's start and at its reports.
static STATE: Mutex<Option<State>> = Mutex::new(None);

/// Finds out whether Callgrind runs the program; if so zeroes its counters, freezes
/// the clock and turns time sampling off (counts only), and returns true: then the periodic samplers
/// (threads, CPU) must not start, as their work would be counted too.
pub(crate) fn start(options: &Options) -> bool {
    let host = valgrind::detect_and_zero();
    if host == Host::Callgrind {
        crate::clock::freeze();
        for kind in crate::sampling::Sampled::ALL {
            crate::sampling::set_rate(kind, 0.0);
        }
    }
    let pid = std::process::id();
    let template = options.callgrind_out_file.as_deref().unwrap_or(dump::DEFAULT_TEMPLATE);
    let base = PathBuf::from(dump::expand(template, pid, |name| std::env::var(name).ok()));
    // Valgrind resolves a relative name against the directory the program started in.
    let base = std::env::current_dir().map_or(base.clone(), |cwd| cwd.join(base));
    let started = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let reason = CString::new(format!("hotpath-{pid}-{started}")).unwrap_or_default();
    *crate::sync::lock(&STATE) = Some(State { host, base, reason, counts: None });
    host == Host::Callgrind
}

/// True when Valgrind (any tool) runs the program: the live server then stays off.
pub(crate) fn under_valgrind() -> bool {
    host().is_some_and(|h| matches!(h, Host::Callgrind | Host::OtherTool))
}

fn host() -> Option<Host> {
    crate::sync::lock(&STATE).as_ref().map(|s| s.host)
}

fn note(text: &str) -> Option<FunctionsIcount> {
    let mut section = FunctionsIcount::default();
    section.note = Some(text.to_string());
    Some(section)
}

/// The section; under Callgrind and at the final report, from a dump taken now.
pub(crate) fn section(totals: &[SiteTotals], options: &Options, final_report: bool) -> Option<FunctionsIcount> {
    let mut guard = crate::sync::lock(&STATE);
    let Some(state) = guard.as_mut() else { return note("profiling has not started") };
    match state.host {
        Host::Native => note("not running under valgrind --tool=callgrind"),
        Host::OtherTool => note("running under Valgrind, but not its Callgrind tool (valgrind --tool=callgrind)"),
        Host::Unsupported => note("instruction counts need Valgrind's Callgrind on x86_64 Linux"),
        Host::Callgrind if !final_report => note("counted by Callgrind, read at the end of the run"),
        Host::Callgrind => {
            if state.counts.is_none() {
                state.counts = Some(read(state));
            }
            match state.counts.as_ref()? {
                Ok(counts) => Some(section::section(counts, totals, options)),
                Err(e) => note(e),
            }
        }
    }
}

/// Asks Callgrind for a dump and reads it.
fn read(state: &State) -> Result<Counts, String> {
    valgrind::dump_stats_at(&state.reason);
    let reason = state.reason.to_string_lossy();
    let shown = state.base.display();
    let files =
        dump::find(&state.base, &reason).map_err(|e| format!("cannot list the Callgrind dumps {shown}.*: {e}"))?;
    if files.is_empty() {
        return Err(format!(
            "Callgrind wrote no dump at {shown}.<n>: HOTPATH_CALLGRIND_OUT_FILE must match --callgrind-out-file"
        ));
    }
    let mut graph = parse::Graph::default();
    for file in &files {
        let f = std::fs::File::open(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        graph.read(BufReader::new(f)).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    }
    let tags = graph::tag_counts(&graph);
    let dump_file = files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ");
    Ok(Counts { tags, program_ir: graph.program_ir, tool: graph.tool, dump_file })
}

/// After every section is collected, at the final report: merges into
/// `HOTPATH_MERGE_REPORT`.
pub(crate) fn finish(report: &mut Report, options: &Options, final_report: bool) {
    let Some(path) = options.merge_report.as_deref().filter(|_| final_report) else { return };
    if let Err(e) = merge::merge(report, path) {
        crate::diag::warn(&format!("HOTPATH_MERGE_REPORT: {e}; the report is written without merging"));
    }
}
