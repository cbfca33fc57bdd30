//! Arguments of the wrapping macros, `future!(fut, label = "..")`, `stream!`,
//! `channel!`, `mutex!` and `rw_lock!`: an expression, then `key = value` parameters.
//! Checked identically in both modes.

use proc_macro::{Spacing, Span, TokenStream, TokenTree};

use crate::args::{self, Value};
use crate::error::Error;

/// One wrapping macro: its name in messages and the parameters it takes.
#[derive(Clone, Copy)]
pub(crate) struct WrapMacro {
    pub(crate) name: &'static str,
    /// Whether `iter = true` (one report row per wrapped value) is accepted.
    pub(crate) iter: bool,
}

pub(crate) const FUTURE: WrapMacro = WrapMacro { name: "future", iter: false };
pub(crate) const STREAM: WrapMacro = WrapMacro { name: "stream", iter: true };
pub(crate) const CHANNEL: WrapMacro = WrapMacro { name: "channel", iter: true };
pub(crate) const MUTEX: WrapMacro = WrapMacro { name: "mutex", iter: false };
pub(crate) const RW_LOCK: WrapMacro = WrapMacro { name: "rw_lock", iter: false };

/// The parsed call.
#[cfg_attr(not(feature = "hotpath"), allow(dead_code))]
pub(crate) struct WrapArgs {
    pub(crate) expr: TokenStream,
    pub(crate) label: Option<String>,
    pub(crate) iter: bool,
}

/// Splits `expr, label = "x", iter = true` into the expression and its parameters.
/// The expression ends before the first top-level `name = ...` chunk, so commas inside
/// it (a turbofish such as `HashMap::<K, V>::new()`) are kept.
pub(crate) fn wrap_args(tokens: TokenStream, spec: WrapMacro) -> Result<WrapArgs, Error> {
    let usage = format!(
        "expected `hotpath::{}!(expression)` or `hotpath::{}!(expression, label = \"...\")`",
        spec.name, spec.name
    );
    let chunks = args::split_top_level_commas(tokens);
    if let Some(first) = chunks.first().filter(|c| is_parameter(c)) {
        return Err(Error::new(first[0].span(), format!("the expression to wrap comes first; {usage}")));
    }
    let split = chunks.iter().skip(1).position(is_parameter).map_or(chunks.len(), |i| i + 1);
    let mut expr: Vec<TokenTree> = Vec::new();
    for (i, chunk) in chunks[..split].iter().enumerate() {
        if i > 0 {
            expr.push(proc_macro::Punct::new(',', Spacing::Alone).into());
        }
        expr.extend(chunk.iter().cloned());
    }
    if expr.is_empty() {
        return Err(Error::new(Span::call_site(), usage));
    }
    let mut params: Vec<TokenTree> = Vec::new();
    for chunk in &chunks[split..] {
        if !is_parameter(chunk) {
            let span = chunk.first().map_or_else(Span::call_site, TokenTree::span);
            return Err(Error::new(span, "expected a parameter like `label = \"...\"` after the expression"));
        }
        params.extend(chunk.iter().cloned());
        params.push(proc_macro::Punct::new(',', Spacing::Alone).into());
    }
    let mut out = WrapArgs { expr: expr.into_iter().collect(), label: None, iter: false };
    let known: &[&str] = if spec.iter { &["label", "iter"] } else { &["label"] };
    for arg in args::parse(params.into_iter().collect())? {
        match arg.name.as_str() {
            "label" => match &arg.value {
                Value::Str(s) if s.is_empty() => return Err(Error::new(arg.value_span, "the label must not be empty")),
                Value::Str(s) => out.label = Some(s.clone()),
                other => {
                    return Err(Error::new(
                        arg.value_span,
                        format!("`label` expects a string literal, found {}", other.kind()),
                    ))
                }
            },
            "iter" if spec.iter => match &arg.value {
                Value::Bool(b) => out.iter = *b,
                other => {
                    return Err(Error::new(
                        arg.value_span,
                        format!("`iter` expects `true` or `false`, found {}", other.kind()),
                    ))
                }
            },
            _ => {
                let names = known.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
                return Err(Error::new(
                    arg.name_span,
                    format!("unknown parameter `{}` for hotpath::{}!; expected one of {names}", arg.name, spec.name),
                ));
            }
        }
    }
    Ok(out)
}

/// `name = ...` (a single `=`, not `==` or `=>`).
fn is_parameter(chunk: &Vec<TokenTree>) -> bool {
    matches!(
        chunk.as_slice(),
        [TokenTree::Ident(_), TokenTree::Punct(p), ..] if p.as_char() == '=' && p.spacing() == Spacing::Alone
    )
}
