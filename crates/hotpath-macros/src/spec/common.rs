//! Checks of single parameter values shared by every macro's parameter list.

use crate::args::{Arg, Value};
use crate::error::Error;

/// `a::b::C` or `C`: identifiers separated by `::`, optionally with a leading `::`.
pub(crate) fn is_path(tokens: &proc_macro::TokenStream) -> bool {
    let mut expect_ident = true;
    let mut colons = 0;
    for tt in tokens.clone() {
        match tt {
            proc_macro::TokenTree::Ident(_) if expect_ident && colons % 2 == 0 => {
                expect_ident = false;
                colons = 0;
            }
            proc_macro::TokenTree::Punct(p) if p.as_char() == ':' => {
                colons += 1;
                if colons == 2 {
                    expect_ident = true;
                }
            }
            _ => return false,
        }
    }
    !expect_ident && colons == 0
}

/// A non-empty string literal.
pub(crate) fn label_value(arg: &Arg) -> Result<String, Error> {
    let s = string(arg)?;
    if s.is_empty() {
        return Err(Error::new(arg.value_span, "the label must not be empty"));
    }
    Ok(s)
}

pub(crate) fn string(arg: &Arg) -> Result<String, Error> {
    match &arg.value {
        Value::Str(s) => Ok(s.clone()),
        other => Err(wrong_kind(arg, other, "a string literal")),
    }
}

/// A duration literal such as `"50ms"`, `"2s"`, `"750us"` or `"100ns"`, in nanoseconds.
pub(crate) fn duration(arg: &Arg) -> Result<u64, Error> {
    let text = string(arg)?;
    hotpath_sections::duration_ns(&text).ok_or_else(|| {
        let expected = "a duration such as \"50ms\", \"2s\" or \"750us\" (1 ns to 10^15 ns)";
        Error::new(arg.value_span, format!("`{}` expects {expected}, found {text:?}", arg.name))
    })
}

pub(crate) fn boolean(arg: &Arg) -> Result<bool, Error> {
    match &arg.value {
        Value::Bool(b) => Ok(*b),
        other => Err(wrong_kind(arg, other, "`true` or `false`")),
    }
}

pub(crate) fn wrong_kind(arg: &Arg, found: &Value, expected: &str) -> Error {
    Error::new(arg.value_span, format!("`{}` expects {expected}, found {}", arg.name, found.kind()))
}

pub(crate) fn unknown(arg: &Arg, macro_name: &str, known: &[&str]) -> Error {
    Error::new(
        arg.name_span,
        format!("unknown parameter `{}` for {macro_name}; expected one of {}", arg.name, quoted(known)),
    )
}

pub(crate) fn quoted(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}
