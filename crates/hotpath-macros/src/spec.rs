//! Which parameters each macro accepts, checked identically in both modes.

use proc_macro::{Span, TokenStream, TokenTree};

use crate::args::{self, Arg, Value};
use crate::error::Error;

/// Output formats `format = "..."` accepts, as the runtime names them.
pub(crate) const FORMATS: [&str; 4] = ["table", "json", "json-pretty", "none"];

/// Parameters of `#[hotpath::main]`.
#[cfg_attr(not(feature = "hotpath"), allow(dead_code))]
#[derive(Default)]
pub(crate) struct MainArgs {
    pub(crate) percentiles: Option<Vec<f64>>,
    pub(crate) format: Option<String>,
    pub(crate) limit: Option<u64>,
    pub(crate) output_path: Option<String>,
    /// `allocator = path::To::Allocator`: wrapped by the counting allocator with `hotpath-alloc`.
    pub(crate) allocator: Option<TokenStream>,
    /// `cpu_output = "dir"`: where `hotpath-cpu` writes its profile files.
    pub(crate) cpu_output: Option<String>,
}

pub(crate) fn main_args(tokens: TokenStream) -> Result<MainArgs, Error> {
    let mut out = MainArgs::default();
    for arg in args::parse(tokens)? {
        match arg.name.as_str() {
            "percentiles" => out.percentiles = Some(percentiles(&arg)?),
            "format" => {
                let f = string(&arg)?;
                if !FORMATS.contains(&f.as_str()) {
                    return Err(Error::new(
                        arg.value_span,
                        format!("unknown format {f:?}; expected one of {}", quoted(&FORMATS)),
                    ));
                }
                out.format = Some(f);
            }
            "limit" => match arg.value {
                Value::Int(n) => out.limit = Some(n),
                ref other => return Err(wrong_kind(&arg, other, "a row count like `limit = 20` (0 shows all)")),
            },
            "output_path" => out.output_path = Some(string(&arg)?),
            "cpu_output" => out.cpu_output = Some(string(&arg)?),
            "allocator" => match arg.value {
                Value::Tokens(ref path) if is_path(path) => out.allocator = Some(path.clone()),
                ref other => {
                    return Err(wrong_kind(
                        &arg,
                        other,
                        "the path of a unit-struct allocator, like `mimalloc::MiMalloc`",
                    ))
                }
            },
            _ => {
                return Err(unknown(
                    &arg,
                    "#[hotpath::main]",
                    &["percentiles", "format", "limit", "output_path", "allocator", "cpu_output"],
                ))
            }
        }
    }
    Ok(out)
}

/// `#[hotpath::measure]` takes an optional `label = "..."`.
pub(crate) fn measure_args(tokens: TokenStream) -> Result<Option<String>, Error> {
    let mut label = None;
    for arg in args::parse(tokens)? {
        match arg.name.as_str() {
            "label" => label = Some(label_value(&arg)?),
            _ => return Err(unknown(&arg, "#[hotpath::measure]", &["label"])),
        }
    }
    Ok(label)
}

/// Attributes that take no parameters at all.
pub(crate) fn no_args(tokens: TokenStream, macro_name: &str) -> Result<(), Error> {
    match tokens.into_iter().next() {
        None => Ok(()),
        Some(tt) => Err(Error::new(tt.span(), format!("{macro_name} takes no parameters"))),
    }
}

/// Splits `measure_block!("label", expr)` into the label and the expression tokens.
pub(crate) fn block_args(tokens: TokenStream) -> Result<(String, TokenStream), Error> {
    let mut chunks = args::split_top_level_commas(tokens.clone()).into_iter();
    let usage = "expected `measure_block!(\"label\", expression)`";
    let label = chunks.next().unwrap_or_default();
    let label = match label.as_slice() {
        [TokenTree::Literal(lit)] => match args::parse_string_literal(lit) {
            Some(s) if !s.is_empty() => s,
            _ => return Err(Error::new(lit.span(), "the label must be a non-empty string literal")),
        },
        [] => return Err(Error::new(Span::call_site(), usage)),
        other => return Err(Error::new(other[0].span(), format!("the label must be a string literal; {usage}"))),
    };
    // The expression is everything after the first top-level comma, trailing comma dropped.
    let mut seen_comma = false;
    let mut expr: Vec<TokenTree> = tokens
        .into_iter()
        .skip_while(|tt| {
            let before = !seen_comma;
            if matches!(tt, TokenTree::Punct(p) if p.as_char() == ',') {
                seen_comma = true;
            }
            before
        })
        .collect();
    if matches!(expr.last(), Some(TokenTree::Punct(p)) if p.as_char() == ',') {
        expr.pop();
    }
    if expr.is_empty() {
        return Err(Error::new(Span::call_site(), usage));
    }
    Ok((label, expr.into_iter().collect()))
}

/// Arguments of `tokio_runtime!([handle] [, label = "..."])`.
pub(crate) struct TokioRuntimeArgs {
    /// The runtime handle expression; `None` monitors the current runtime.
    pub(crate) handle: Option<TokenStream>,
    #[cfg_attr(not(feature = "hotpath"), allow(dead_code))]
    pub(crate) label: Option<String>,
}

/// Splits `tokio_runtime!` arguments: an optional handle expression first, then
/// `name = value` parameters. A chunk is a parameter when it starts `ident =`
/// (a lone `=`, so `a == b` stays an expression).
pub(crate) fn tokio_runtime_args(tokens: TokenStream) -> Result<TokioRuntimeArgs, Error> {
    let usage = "expected `tokio_runtime!()`, `tokio_runtime!(&handle)` or either with `label = \"...\"`";
    let mut out = TokioRuntimeArgs { handle: None, label: None };
    let mut params = TokenStream::new();
    for (i, chunk) in args::split_top_level_commas(tokens).into_iter().enumerate() {
        let is_param = matches!(
            chunk.as_slice(),
            [TokenTree::Ident(_), TokenTree::Punct(eq), ..] if eq.as_char() == '=' && eq.spacing() == proc_macro::Spacing::Alone
        );
        if is_param {
            if !params.is_empty() {
                params.extend([TokenTree::Punct(proc_macro::Punct::new(',', proc_macro::Spacing::Alone))]);
            }
            params.extend(chunk);
        } else if i == 0 && !chunk.is_empty() {
            out.handle = Some(chunk.into_iter().collect());
        } else {
            let span = chunk.first().map_or_else(Span::call_site, TokenTree::span);
            let what = match (i, &out.handle) {
                (0, _) => usage,
                (_, Some(_)) => "tokio_runtime! takes one runtime handle; expected `label = \"...\"` here",
                (_, None) => "the runtime handle comes first: `tokio_runtime!(&handle, label = \"...\")`",
            };
            return Err(Error::new(span, what));
        }
    }
    for arg in args::parse(params)? {
        match arg.name.as_str() {
            "label" => out.label = Some(label_value(&arg)?),
            _ => return Err(unknown(&arg, "hotpath::tokio_runtime!", &["label"])),
        }
    }
    Ok(out)
}

/// Parameters of `io!(expression, label = "...", iter = true)`.
#[cfg_attr(not(feature = "hotpath"), allow(dead_code))]
#[derive(Default)]
pub(crate) struct IoArgs {
    pub(crate) label: Option<String>,
    pub(crate) iter: bool,
}

/// Splits `io!(expr, label = "...", iter = true)` into the expression tokens and its
/// parameters. Parameters are the trailing `name = value` chunks, so an expression
/// with top-level commas (a turbofish, a closure) stays whole.
pub(crate) fn io_args(tokens: TokenStream) -> Result<(IoArgs, TokenStream), Error> {
    let usage = "expected `io!(expression)` or `io!(expression, label = \"...\", iter = true)`";
    let chunks = args::split_top_level_commas(tokens.clone());
    let first_param = chunks.iter().rposition(|c| !is_param(c)).map_or(0, |last_expr| last_expr + 1);
    if first_param == 0 {
        let span = chunks.iter().flatten().next().map_or_else(Span::call_site, TokenTree::span);
        return Err(Error::new(span, usage));
    }
    // The expression is every token before the comma that opens the parameters.
    let mut commas = 0;
    let mut expr = Vec::new();
    let mut params = Vec::new();
    for tt in tokens {
        if commas < first_param {
            if matches!(&tt, TokenTree::Punct(p) if p.as_char() == ',') {
                commas += 1;
                if commas == first_param {
                    continue;
                }
            }
            expr.push(tt);
        } else {
            params.push(tt);
        }
    }
    let mut out = IoArgs::default();
    for arg in args::parse(params.into_iter().collect())? {
        match arg.name.as_str() {
            "label" => out.label = Some(label_value(&arg)?),
            "iter" => match arg.value {
                Value::Bool(b) => out.iter = b,
                ref other => return Err(wrong_kind(&arg, other, "`true` or `false`")),
            },
            _ => return Err(unknown(&arg, "hotpath::io!", &["label", "iter"])),
        }
    }
    Ok((out, expr.into_iter().collect()))
}

/// A `name = value` chunk (a lone `=`, not `==` or `=>`), or an empty one.
fn is_param(chunk: &[TokenTree]) -> bool {
    match chunk {
        [] => true,
        [TokenTree::Ident(_), TokenTree::Punct(eq), ..] => {
            eq.as_char() == '=' && eq.spacing() == proc_macro::Spacing::Alone
        }
        _ => false,
    }
}

/// Checks, without `syn`, that `#[measure]` sits on a non-`const` function.
pub(crate) fn measured_item(item: &TokenStream) -> Result<(), Error> {
    for tt in item.clone() {
        if let TokenTree::Ident(ident) = &tt {
            match ident.to_string().as_str() {
                "const" => return Err(Error::new(ident.span(), "a `const fn` cannot be measured")),
                "fn" => return Ok(()),
                _ => {}
            }
        }
    }
    Err(Error::new(first_ident_span(item), "#[hotpath::measure] applies to a function or method"))
}

/// Checks, without `syn`, that `#[measure_all]` sits on an `impl` block or a `mod`:
/// the first keyword after attributes, visibility and `unsafe` must be one of them.
pub(crate) fn measured_container(item: &TokenStream) -> Result<(), Error> {
    let mut tokens = item.clone().into_iter().peekable();
    while let Some(tt) = tokens.next() {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                tokens.next(); // the attribute's [...] group
            }
            TokenTree::Ident(i) if i.to_string() == "pub" => {
                if matches!(tokens.peek(), Some(TokenTree::Group(g)) if g.delimiter() == proc_macro::Delimiter::Parenthesis)
                {
                    tokens.next();
                }
            }
            TokenTree::Ident(i) if i.to_string() == "unsafe" => {}
            TokenTree::Ident(i) if i.to_string() == "impl" || i.to_string() == "mod" => return Ok(()),
            _ => break,
        }
    }
    Err(Error::new(first_ident_span(item), "#[hotpath::measure_all] applies to an `impl` block or a `mod`"))
}

/// Where an item starts, for errors about its kind (its first keyword or name).
fn first_ident_span(item: &TokenStream) -> Span {
    item.clone()
        .into_iter()
        .find_map(|tt| match tt {
            TokenTree::Ident(i) if i.to_string() != "pub" => Some(i.span()),
            _ => None,
        })
        .unwrap_or_else(Span::call_site)
}

/// `a::b::C` or `C`: identifiers separated by `::`, optionally with a leading `::`.
fn is_path(tokens: &TokenStream) -> bool {
    let mut expect_ident = true;
    let mut colons = 0;
    for tt in tokens.clone() {
        match tt {
            TokenTree::Ident(_) if expect_ident && colons % 2 == 0 => {
                expect_ident = false;
                colons = 0;
            }
            TokenTree::Punct(p) if p.as_char() == ':' => {
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

fn label_value(arg: &Arg) -> Result<String, Error> {
    let s = string(arg)?;
    if s.is_empty() {
        return Err(Error::new(arg.value_span, "the label must not be empty"));
    }
    Ok(s)
}

fn string(arg: &Arg) -> Result<String, Error> {
    match &arg.value {
        Value::Str(s) => Ok(s.clone()),
        other => Err(wrong_kind(arg, other, "a string literal")),
    }
}

fn percentiles(arg: &Arg) -> Result<Vec<f64>, Error> {
    let Value::List(items) = &arg.value else {
        return Err(wrong_kind(arg, &arg.value, "a list like `[50, 95, 99.9]`"));
    };
    if items.is_empty() {
        return Err(Error::new(arg.value_span, "give at least one percentile, like `[50, 95, 99]`"));
    }
    for (p, span) in items {
        if !(0.0..=100.0).contains(p) {
            return Err(Error::new(*span, format!("percentile {p} is outside 0..=100")));
        }
    }
    Ok(items.iter().map(|(p, _)| *p).collect())
}

fn wrong_kind(arg: &Arg, found: &Value, expected: &str) -> Error {
    Error::new(arg.value_span, format!("`{}` expects {expected}, found {}", arg.name, found.kind()))
}

fn unknown(arg: &Arg, macro_name: &str, known: &[&str]) -> Error {
    Error::new(
        arg.name_span,
        format!("unknown parameter `{}` for {macro_name}; expected one of {}", arg.name, quoted(known)),
    )
}

fn quoted(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}
