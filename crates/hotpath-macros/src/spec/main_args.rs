//! Parameters of `#[hotpath::main]`.

use proc_macro::TokenStream;

use super::common::{boolean, is_path, quoted, string, unknown, wrong_kind};
use crate::args::{self, Arg, Value};
use crate::error::{Collector, Error, Errors};
use crate::note::Note;

/// Output formats `format = "..."` accepts, as the runtime names them.
pub(crate) const FORMATS: [&str; 4] = ["table", "json", "json-pretty", "none"];

/// `SECTIONS`, the names `report = "..."` (and `HOTPATH_REPORT`) accept, and
/// `SECTION_LIMITS`, the `<group>_limit` parameters (named as the config methods), both
/// from the one section list (`hotpath-sections`).
macro_rules! section_names {
    (sections {$(
        $(#[$doc:meta])*
        $variant:ident => $field:ident: $ty:ty, $name:literal, $title:literal, $tab:ident,
            limit: $limit:expr, compared: $compared:literal, about: $about:literal, absent: $absent:literal;
    )*} limits {$(
        $method:ident: $group:literal, $default:literal, $what:literal;
    )*}) => {
        pub(crate) const SECTIONS: &[&str] = &[$($name),*];
        pub(crate) const SECTION_LIMITS: &[&str] = &[$(stringify!($method)),*];
    };
}
hotpath_sections::sections!(section_names);

/// Parameters before and after the `<group>_limit` ones, as the error lists them.
const KNOWN_BEFORE_LIMITS: [&str; 3] = ["percentiles", "format", "limit"];
const KNOWN_AFTER_LIMITS: [&str; 7] =
    ["output_path", "report", "allocator", "cpu_output", "timeline", "timeline_output", "overhead_budget"];

/// Every parameter, for the error that names an unknown one.
fn known() -> Vec<&'static str> {
    KNOWN_BEFORE_LIMITS.iter().chain(SECTION_LIMITS).chain(&KNOWN_AFTER_LIMITS).copied().collect()
}

/// Parameters of `#[hotpath::main]`. Every one is checked in both modes; without
/// `hotpath` only the notes (warnings about ignored parameters) are kept.
#[derive(Default)]
pub(crate) struct MainArgs {
    #[cfg(feature = "hotpath")]
    pub(crate) percentiles: Option<Vec<f64>>,
    #[cfg(feature = "hotpath")]
    pub(crate) format: Option<String>,
    #[cfg(feature = "hotpath")]
    pub(crate) limit: Option<u64>,
    /// `functions_limit = N`, ...: (parameter name, value), in the order given.
    #[cfg(feature = "hotpath")]
    pub(crate) section_limits: Vec<(&'static str, u64)>,
    #[cfg(feature = "hotpath")]
    pub(crate) output_path: Option<String>,
    /// `report = "functions-timing,threads"`: the section spec, already checked.
    #[cfg(feature = "hotpath")]
    pub(crate) report: Option<String>,
    /// `allocator = path::To::Allocator`: wrapped by the counting allocator with `hotpath-alloc`.
    #[cfg(feature = "hotpath")]
    pub(crate) allocator: Option<TokenStream>,
    /// `cpu_output = "dir"`: where `hotpath-cpu` writes its profile files.
    #[cfg(feature = "hotpath")]
    pub(crate) cpu_output: Option<String>,
    /// `timeline = true`: record the timeline.
    #[cfg(feature = "hotpath")]
    pub(crate) timeline: Option<bool>,
    /// `timeline_output = "trace.pftrace"`: where the timeline goes at exit.
    #[cfg(feature = "hotpath")]
    pub(crate) timeline_output: Option<String>,
    /// `overhead_budget = "1%"`: the profiler's share of CPU time, as a fraction.
    #[cfg(feature = "hotpath")]
    pub(crate) overhead_budget: Option<f64>,
    /// Accepted but ignored parameters (`timeout = ms` of older releases).
    pub(crate) notes: Vec<Note>,
}

/// Checks every parameter and reports every bad one at once.
pub(crate) fn main_args(tokens: TokenStream) -> Result<MainArgs, Errors> {
    let mut errors = Collector::default();
    let mut out = MainArgs::default();
    for arg in args::parse(tokens, &mut errors) {
        if let Err(e) = one(&arg, &mut out) {
            errors.push(e);
        }
    }
    errors.finish(out)
}

fn one(arg: &Arg, out: &mut MainArgs) -> Result<(), Error> {
    match arg.name.as_str() {
        "percentiles" => keep!(out.percentiles, Some(percentiles(arg)?)),
        "format" => {
            let f = string(arg)?;
            if !FORMATS.contains(&f.as_str()) {
                return Err(Error::new(
                    arg.value_span,
                    format!("unknown format {f:?}; expected one of {}", quoted(&FORMATS)),
                ));
            }
            keep!(out.format, Some(f));
        }
        "limit" => keep!(out.limit, Some(row_count(arg)?)),
        name if SECTION_LIMITS.contains(&name) => {
            let method = SECTION_LIMITS.iter().find(|m| **m == name).expect("listed");
            let limit = (*method, row_count(arg)?);
            #[cfg(feature = "hotpath")]
            out.section_limits.push(limit);
            #[cfg(not(feature = "hotpath"))]
            let _ = limit;
        }
        "output_path" => keep!(out.output_path, Some(string(arg)?)),
        "report" => {
            let spec = string(arg)?;
            check_report(&spec).map_err(|m| Error::new(arg.value_span, m))?;
            keep!(out.report, Some(spec));
        }
        "cpu_output" => keep!(out.cpu_output, Some(string(arg)?)),
        "timeline" => keep!(out.timeline, Some(boolean(arg)?)),
        "timeline_output" => {
            let path = string(arg)?;
            if path.trim().is_empty() {
                return Err(Error::new(arg.value_span, "`timeline_output` expects a file path, found an empty string"));
            }
            keep!(out.timeline_output, Some(path));
        }
        "overhead_budget" => {
            let text = string(arg)?;
            let fraction = hotpath_sections::budget_fraction(&text).ok_or_else(|| {
                Error::new(
                    arg.value_span,
                    format!("`overhead_budget` {}, found {text:?}", hotpath_sections::BUDGET_PROBLEM),
                )
            })?;
            keep!(out.overhead_budget, Some(fraction));
        }
        "allocator" => match &arg.value {
            Value::Tokens(path) if is_path(path) => keep!(out.allocator, Some(path.clone())),
            other => {
                return Err(wrong_kind(arg, other, "the path of a unit-struct allocator, like `mimalloc::MiMalloc`"))
            }
        },
        // Removed before 0.30 (the seed rejects it with the feature on); a note says what replaced it.
        "timeout" => {
            row_count(arg)?;
            out.notes.push(Note {
                name: arg.name.clone(),
                span: arg.name_span,
                message: "`timeout` is ignored: set HOTPATH_SHUTDOWN_MS, or use \
                          HotpathGuardBuilder::build_with_shutdown"
                    .into(),
            });
        }
        _ => return Err(unknown(arg, "#[hotpath::main]", &known())),
    }
    Ok(())
}

fn row_count(arg: &Arg) -> Result<u64, Error> {
    match arg.value {
        Value::Int(n) => Ok(n),
        Value::Tokens(ref t) if t.to_string().starts_with('-') => Err(Error::new(
            arg.value_span,
            format!(
                "`{}` expects a row count like `{} = 20` (0 shows all), found a negative number",
                arg.name, arg.name
            ),
        )),
        ref other => Err(wrong_kind(arg, other, &format!("a row count like `{} = 20` (0 shows all)", arg.name))),
    }
}

fn percentiles(arg: &Arg) -> Result<Vec<f64>, Error> {
    let Value::List(items) = &arg.value else {
        return Err(wrong_kind(arg, &arg.value, "a list like `[50, 95, 99.9]`"));
    };
    if items.is_empty() {
        return Err(Error::new(arg.value_span, "give at least one percentile, like `[50, 95, 99]`"));
    }
    if let Some((p, span)) = items.iter().find(|(p, _)| !(0.0..=100.0).contains(p)) {
        return Err(Error::new(*span, format!("percentile {p} is outside 0..=100")));
    }
    Ok(items.iter().map(|(p, _)| *p).collect())
}

/// The section-spec grammar: comma-separated `all`, `auto`, `<name>` or `-<name>`,
/// each trimmed; empty entries are ignored.
pub(crate) fn check_report(spec: &str) -> Result<(), String> {
    let bad: Vec<&str> = spec
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty() && *t != "all" && *t != "auto")
        .filter(|t| !SECTIONS.contains(&t.strip_prefix('-').unwrap_or(t)))
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    let list = bad.iter().map(|t| format!("{t:?}")).collect::<Vec<_>>().join(", ");
    Err(format!(
        "unknown report section {list}; expected `all`, `auto`, a section name or `-name` to leave one out, \
         with names {}",
        quoted(SECTIONS)
    ))
}
