//! `measure_block!(label, expression)`.

use proc_macro::{Span, TokenStream, TokenTree};

use crate::args;
use crate::error::{Collector, Error, Errors};
use crate::exprs;

/// A label as written: a string literal, or an expression evaluated at run time. Without
/// `hotpath` only an expression is kept (it is still type-checked); a literal's text is
/// read by the expansion alone.
pub(crate) enum Label {
    Literal(#[cfg(feature = "hotpath")] String),
    Expr(TokenStream),
}

impl Label {
    /// A checked, non-empty string literal.
    pub(crate) fn literal(text: String) -> Label {
        #[cfg(feature = "hotpath")]
        return Label::Literal(text);
        #[cfg(not(feature = "hotpath"))]
        {
            let _ = text;
            Label::Literal()
        }
    }
}

const USAGE: &str = "expected `measure_block!(\"label\", expression)`";

/// Splits `measure_block!(label, expr)` into the label and the expression tokens. The
/// label is a non-empty string literal or a `&'static str` expression; exactly one
/// expression follows (a trailing comma is fine).
pub(crate) fn block_args(tokens: TokenStream) -> Result<(Label, TokenStream), Errors> {
    let parts = exprs::split(tokens);
    let mut errors = Collector::default();
    let label = match parts.first().map(Vec::as_slice) {
        None => return Err(Error::new(Span::call_site(), USAGE).into()),
        Some([TokenTree::Literal(lit)]) if args::parse_string_literal(lit).is_some() => {
            match args::parse_string_literal(lit) {
                Some(s) if !s.is_empty() => Some(Label::literal(s)),
                _ => {
                    errors.push(Error::new(lit.span(), "the label must be a non-empty string literal"));
                    None
                }
            }
        }
        Some([TokenTree::Literal(lit)]) => {
            errors.push(Error::new(lit.span(), "the label must be a string literal or an expression giving a string"));
            None
        }
        Some(expr) => Some(Label::Expr(expr.iter().cloned().collect())),
    };
    match parts.len() {
        0 | 1 => errors.push(Error::new(Span::call_site(), format!("{USAGE}: the expression to measure is missing"))),
        2 => {}
        _ => errors.push(Error::new(
            parts[2][0].span(),
            "measure_block! takes a label and one expression; to measure several, \
             put them in a block: `measure_block!(\"label\", { first(); second() })`",
        )),
    }
    match (label, parts.get(1)) {
        (Some(label), Some(expr)) => errors.finish((label, expr.iter().cloned().collect())),
        _ => Err(errors.finish(()).err().unwrap_or_else(|| Error::new(Span::call_site(), USAGE).into())),
    }
}
