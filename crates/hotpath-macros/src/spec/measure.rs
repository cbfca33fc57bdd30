//! Parameters of `#[hotpath::measure]`, `#[hotpath::future_fn]` and
//! `#[hotpath::measure_all]`.

use proc_macro::TokenStream;

use super::common::{boolean, duration, label_value, string, unknown};
use crate::args::{self, Arg};
use crate::error::{Collector, Error, Errors};

/// What `#[measure]` (and the other function attributes) were asked for. Every parameter
/// is checked in both modes; without `hotpath` only `future` is kept (it restricts the
/// item to async functions), the rest exists for the expansion alone.
#[derive(Clone, Default)]
pub(crate) struct MeasureArgs {
    /// `label = "name"`: the row's name instead of the function's path.
    #[cfg(feature = "hotpath")]
    pub(crate) label: Option<String>,
    /// `impl_type = "Type"`: the row is named `module::Type::function`.
    #[cfg(feature = "hotpath")]
    pub(crate) impl_type: Option<String>,
    /// `log = true`: keep the `Debug` text of the last returned values.
    #[cfg(feature = "hotpath")]
    pub(crate) log: bool,
    /// `timeline_over = "50ms"`: a call longer than this writes the timeline out.
    #[cfg(feature = "hotpath")]
    pub(crate) timeline_over_ns: Option<u64>,
    /// `future = true`: only on async functions (they are in the futures section anyway).
    pub(crate) future: bool,
    /// Set by `future_fn`: the call is reported as a future only.
    #[cfg(feature = "hotpath")]
    pub(crate) future_only: bool,
    /// Set by `measure_all(log = true)`: log only return types that implement `Debug`.
    #[cfg(feature = "hotpath")]
    pub(crate) log_if_debug: bool,
}

/// `#[hotpath::measure(label = "..", impl_type = "..", log = true, future = true,
/// timeline_over = "50ms")]`, any order.
pub(crate) fn measure_args(tokens: TokenStream) -> Result<MeasureArgs, Errors> {
    let known = ["label", "impl_type", "log", "future", "timeline_over"];
    parse(tokens, "#[hotpath::measure]", &known, MeasureArgs::default())
}

/// `#[hotpath::future_fn]` or `#[hotpath::future_fn(log = true)]`.
pub(crate) fn future_fn_args(tokens: TokenStream) -> Result<MeasureArgs, Errors> {
    let base = MeasureArgs {
        #[cfg(feature = "hotpath")]
        future_only: true,
        ..MeasureArgs::default()
    };
    parse(tokens, "#[hotpath::future_fn]", &["log", "timeline_over"], base)
}

/// `#[hotpath::measure_all(future = true, log = true)]`: applied to every method; `log`
/// then records only the return values whose type implements `Debug`.
pub(crate) fn measure_all_args(tokens: TokenStream) -> Result<MeasureArgs, Errors> {
    let args = parse(tokens, "#[hotpath::measure_all]", &["future", "log"], MeasureArgs::default())?;
    #[cfg(feature = "hotpath")]
    let args = MeasureArgs { log_if_debug: args.log, ..args };
    Ok(args)
}

fn parse(tokens: TokenStream, macro_name: &str, known: &[&str], mut out: MeasureArgs) -> Result<MeasureArgs, Errors> {
    let mut errors = Collector::default();
    for arg in args::parse(tokens, &mut errors) {
        if let Err(e) = one(&arg, macro_name, known, &mut out) {
            errors.push(e);
        }
    }
    errors.finish(out)
}

fn one(arg: &Arg, macro_name: &str, known: &[&str], out: &mut MeasureArgs) -> Result<(), Error> {
    if !known.contains(&arg.name.as_str()) {
        return Err(unknown(arg, macro_name, known));
    }
    match arg.name.as_str() {
        "label" => keep!(out.label, Some(label_value(arg)?)),
        "impl_type" => {
            let ty = string(arg)?;
            if !ty.split("::").all(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')) {
                return Err(Error::new(arg.value_span, "`impl_type` expects a type name like \"Worker\""));
            }
            keep!(out.impl_type, Some(ty));
        }
        "log" => keep!(out.log, boolean(arg)?),
        "future" => out.future = boolean(arg)?,
        "timeline_over" => keep!(out.timeline_over_ns, Some(duration(arg)?)),
        other => unreachable!("{other} is in `known`"),
    }
    Ok(())
}
