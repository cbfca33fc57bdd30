//! Profile mode: `HOTPATH_CRITERION_ITERATIONS=N`, the one selected benchmark, and the
//! hotpath session around its N iterations.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

use super::filter::{self, Filter};
use crate::HotpathGuardBuilder;

const VAR: &str = "HOTPATH_CRITERION_ITERATIONS";
/// The session's name: its caller and its own row in the report.
const CALLER: &str = "hotpath::criterion::bench";

/// What profile mode needs from the environment and the command line.
pub(crate) struct Profile {
    iterations: u64,
    filter: Filter,
}

/// `Some` in profile mode; `None` forwards everything to Criterion.
pub(crate) fn profile() -> Option<&'static Profile> {
    static MODE: OnceLock<Option<Profile>> = OnceLock::new();
    MODE.get_or_init(read_mode).as_ref()
}

fn read_mode() -> Option<Profile> {
    let raw = std::env::var_os(VAR)?;
    let text = raw.to_string_lossy();
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if !cfg!(feature = "hotpath") {
        eprintln!(
            "[hotpath] {VAR} is ignored: the `hotpath` feature is off, so Criterion runs the benchmarks as usual"
        );
        return None;
    }
    let iterations = match text.parse::<u64>() {
        Ok(n) if n > 0 => n,
        _ => fail(&format!("{VAR}: expected a positive integer, got {text:?}")),
    };
    let args = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned());
    let args = filter::parse(args).unwrap_or_else(|e| fail(&e));
    // `--list` only prints names: Criterion does it.
    (!args.list).then_some(Profile { iterations, filter: args.filter })
}

/// One line on stderr and exit status 1: nothing was profiled.
pub(crate) fn fail(message: &str) -> ! {
    eprintln!("[hotpath] error: {message}");
    std::process::exit(1)
}

/// Where `criterion_main!` is: listing the selection first, then running it; or
/// `Direct` when a group function was called some other way.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pass {
    Direct,
    Listing,
    Running,
}

struct State {
    pass: Pass,
    all: Vec<String>,
    selected: Vec<String>,
    profiled: Option<String>,
}

static STATE: Mutex<State> =
    Mutex::new(State { pass: Pass::Direct, all: Vec::new(), selected: Vec::new(), profiled: None });

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub(crate) fn set_pass(pass: Pass) {
    state().pass = pass;
}

/// After the listing pass: the one selected id, or an error naming what there is.
pub(crate) fn check_selection() {
    let state = state();
    match state.selected.as_slice() {
        [_] => {}
        [] => {
            let known = summary(&state.all);
            fail(&format!(
                "{VAR} is set but the filter selects no benchmark (benchmarks: {known}); select one, e.g. `-- --exact \"group/id\"`"
            ))
        }
        several => fail(&format!(
            "{VAR} profiles one benchmark, and the filter selects {}: {}; select one, e.g. `-- --exact \"{}\"`",
            several.len(),
            summary(several),
            several[0]
        )),
    }
}

fn summary(ids: &[String]) -> String {
    const SHOWN: usize = 20;
    match ids.len() {
        0 => "none".to_string(),
        n if n <= SHOWN => ids.join(", "),
        n => format!("{}, and {} more", ids[..SHOWN].join(", "), n - SHOWN),
    }
}

/// In profile mode, whether the benchmark `id` is the one to profile (at most once).
pub(crate) fn select(profile: &Profile, id: &str) -> Option<Run> {
    let mut state = state();
    if state.pass == Pass::Listing {
        state.all.push(id.to_string());
    }
    if !profile.filter.matches(id) {
        return None;
    }
    match state.pass {
        Pass::Listing => {
            state.selected.push(id.to_string());
            None
        }
        _ if state.profiled.is_some() => {
            let first = state.profiled.clone().unwrap_or_default();
            drop(state);
            fail(&format!("{VAR} profiles one benchmark, and the filter selects {first} and {id} (at least)"))
        }
        _ => {
            state.profiled = Some(id.to_string());
            Some(Run { id: id.to_string(), iterations: profile.iterations, started: false })
        }
    }
}

/// The selected benchmark: its routine runs once, N times, inside one session.
pub(crate) struct Run {
    id: String,
    iterations: u64,
    started: bool,
}

impl Run {
    /// Runs `body(N)` inside the session. A benchmark function that calls the Bencher
    /// twice would profile 2×N iterations, so the second call is skipped with a warning.
    pub(crate) fn once(&mut self, body: impl FnOnce(u64)) {
        if std::mem::replace(&mut self.started, true) {
            eprintln!(
                "[hotpath] warning: benchmark {} calls the Bencher more than once; only the first routine is profiled",
                self.id
            );
            return;
        }
        let metadata = HashMap::from([
            ("criterion_benchmark".to_string(), self.id.clone()),
            ("criterion_iterations".to_string(), self.iterations.to_string()),
        ]);
        let guard = HotpathGuardBuilder::new(CALLER).user_metadata(metadata).build();
        body(self.iterations);
        drop(guard);
    }

    /// After the benchmark's function: one that never called the Bencher profiled nothing.
    pub(crate) fn finish(self) {
        if !self.started {
            fail(&format!("benchmark {} never called a Bencher method: nothing to profile", self.id));
        }
    }
}
