//! Arguments of the wrapping macros, `future!(fut, label = "..")`, `stream!`,
//! `channel!`, `mutex!`, `rw_lock!` and `io!`: an expression, then `key = value`
//! parameters in any order. Checked identically in both modes.

use proc_macro::{Span, TokenStream, TokenTree};

use crate::args::{self, Arg, Value};
use crate::error::{Collector, Error, Errors};
use crate::exprs;
use crate::note::Note;
use crate::spec::{boolean, keep, quoted, unknown, Label};

/// One wrapping macro: its name in messages and the parameters it takes.
#[derive(Clone, Copy)]
pub(crate) struct WrapMacro {
    pub(crate) name: &'static str,
    /// The parameters besides `label`.
    params: &'static [&'static str],
}

pub(crate) const FUTURE: WrapMacro = WrapMacro { name: "future", params: &["log"] };
pub(crate) const STREAM: WrapMacro = WrapMacro { name: "stream", params: &["log", "iter"] };
pub(crate) const CHANNEL: WrapMacro = WrapMacro { name: "channel", params: &["capacity", "log", "iter"] };
pub(crate) const MUTEX: WrapMacro = WrapMacro { name: "mutex", params: &[] };
pub(crate) const RW_LOCK: WrapMacro = WrapMacro { name: "rw_lock", params: &[] };
pub(crate) const IO: WrapMacro = WrapMacro { name: "io", params: &["iter"] };

impl WrapMacro {
    fn accepts(&self, name: &str) -> bool {
        name == "label" || self.params.contains(&name)
    }

    fn known(&self) -> Vec<&'static str> {
        std::iter::once("label").chain(self.params.iter().copied()).collect()
    }
}

/// The parsed call. `iter` and `log` are checked in both modes but kept only for the
/// expansion with `hotpath` on.
pub(crate) struct WrapArgs {
    pub(crate) expr: TokenStream,
    pub(crate) label: Option<Label>,
    #[cfg(feature = "hotpath")]
    pub(crate) iter: bool,
    #[cfg(feature = "hotpath")]
    pub(crate) log: bool,
    /// `capacity = N`: the bound to report for channels whose constructor hides it.
    pub(crate) capacity: Option<TokenStream>,
    /// Accepted parameters that change nothing (`proxy = true`).
    pub(crate) notes: Vec<Note>,
}

/// Splits `expr, label = "x", iter = true` into the expression and its parameters.
/// The expression ends before the first top-level `name = ...` part, so commas inside
/// it (a turbofish such as `HashMap::<K, V>::new()`, a closure's parameters) are kept.
pub(crate) fn wrap_args(tokens: TokenStream, spec: WrapMacro) -> Result<WrapArgs, Errors> {
    let usage = format!(
        "expected `hotpath::{}!(expression)` or `hotpath::{}!(expression, label = \"...\")`",
        spec.name, spec.name
    );
    let parts = exprs::split(tokens);
    if let Some(first) = parts.first().filter(|p| exprs::is_parameter(p)) {
        return Err(Error::new(first[0].span(), format!("the expression to wrap comes first; {usage}")).into());
    }
    let split = parts.iter().position(|p| exprs::is_parameter(p)).unwrap_or(parts.len());
    let expr = exprs::join(&parts[..split]);
    if expr.is_empty() {
        return Err(Error::new(Span::call_site(), usage).into());
    }
    let mut errors = Collector::default();
    let mut params: Vec<TokenTree> = Vec::new();
    for part in &parts[split..] {
        if !exprs::is_parameter(part) {
            let span = part.first().map_or_else(Span::call_site, TokenTree::span);
            errors.push(Error::new(span, "expected a parameter like `label = \"...\"` after the expression"));
            continue;
        }
        params.extend(part.iter().cloned());
        params.push(proc_macro::Punct::new(',', proc_macro::Spacing::Alone).into());
    }
    let mut out = WrapArgs {
        expr: expr.into_iter().collect(),
        label: None,
        #[cfg(feature = "hotpath")]
        iter: false,
        #[cfg(feature = "hotpath")]
        log: false,
        capacity: None,
        notes: Vec::new(),
    };
    for arg in args::parse(params.into_iter().collect(), &mut errors) {
        if let Err(e) = one(&arg, spec, &mut out) {
            errors.push(e);
        }
    }
    errors.finish(out)
}

fn one(arg: &Arg, spec: WrapMacro, out: &mut WrapArgs) -> Result<(), Error> {
    let macro_name = format!("hotpath::{}!", spec.name);
    if !spec.accepts(&arg.name) {
        // Older releases had `proxy = true`: channels are now always wrapped.
        if spec.name == CHANNEL.name && arg.name == "proxy" {
            boolean(arg)?;
            out.notes.push(Note {
                name: arg.name.clone(),
                span: arg.name_span,
                message: "`proxy` is ignored: channel! always wraps the channel's own halves".into(),
            });
            return Ok(());
        }
        return Err(unknown(arg, &macro_name, &spec.known()));
    }
    match arg.name.as_str() {
        "label" => out.label = Some(label(arg)?),
        "iter" => keep!(out.iter, boolean(arg)?),
        "log" => keep!(out.log, boolean(arg)?),
        "capacity" => match &arg.value {
            Value::Int(n) => {
                out.capacity = Some(TokenTree::from(proc_macro::Literal::usize_unsuffixed(*n as usize)).into())
            }
            Value::Tokens(expr) => out.capacity = Some(expr.clone()),
            other => {
                return Err(Error::new(
                    arg.value_span,
                    format!("`capacity` expects a number like `capacity = 16`, found {}", other.kind()),
                ))
            }
        },
        other => unreachable!("{other} is accepted by {}", quoted(&spec.known())),
    }
    Ok(())
}

/// A label: a non-empty string literal, or any expression giving a string (evaluated
/// once per wrapped value, when the `hotpath` feature is on).
fn label(arg: &Arg) -> Result<Label, Error> {
    match &arg.value {
        Value::Str(s) if s.is_empty() => Err(Error::new(arg.value_span, "the label must not be empty")),
        Value::Str(s) => Ok(Label::literal(s.clone())),
        Value::Tokens(expr) => Ok(Label::Expr(expr.clone())),
        other => Err(Error::new(
            arg.value_span,
            format!(
                "`label` expects a string literal or an expression giving a string (like `format!(\"worker-{{i}}\")`), found {}",
                other.kind()
            ),
        )),
    }
}
