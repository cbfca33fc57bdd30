//! A small parser for `key = value, ...` macro arguments over `proc_macro` tokens.
//!
//! Shared by both modes so that a bad argument is the same compile error whether
//! the `hotpath` feature is on or off.

use proc_macro::{Delimiter, Literal, Span, TokenStream, TokenTree};

use crate::error::{Collector, Error};

/// One `name = value` pair.
pub(crate) struct Arg {
    pub(crate) name: String,
    pub(crate) name_span: Span,
    pub(crate) value: Value,
    pub(crate) value_span: Span,
}

/// The value forms the macros accept.
pub(crate) enum Value {
    Str(String),
    Int(u64),
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
    /// `[a, b, c]` of numeric literals.
    List(Vec<(f64, Span)>),
    /// Anything else, such as a path or an expression, as written.
    Tokens(TokenStream),
}

impl Value {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Bool(_) => "a boolean",
            Value::List(_) => "a list",
            Value::Tokens(_) => "a path or expression",
        }
    }
}

/// Parses `a = 1, b = "x", c = [50, 99.9]`; an empty stream gives no arguments. A bad
/// chunk is recorded in `errors` and skipped, so every problem is reported at once.
pub(crate) fn parse(tokens: TokenStream, errors: &mut Collector) -> Vec<Arg> {
    let mut out: Vec<Arg> = Vec::new();
    for chunk in split_top_level_commas(tokens) {
        if let Some(arg) = errors.ok(parse_one(chunk)) {
            if out.iter().any(|a| a.name == arg.name) {
                errors.push(Error::new(arg.name_span, format!("parameter `{}` is given twice", arg.name)));
                continue;
            }
            out.push(arg);
        }
    }
    out
}

fn parse_one(chunk: Vec<TokenTree>) -> Result<Arg, Error> {
    let mut iter = chunk.into_iter();
    let Some(first) = iter.next() else {
        return Err(Error::new(Span::call_site(), "expected a parameter like `label = \"...\"`"));
    };
    let TokenTree::Ident(name) = &first else {
        return Err(Error::new(first.span(), "expected a parameter name, like `label = \"...\"`"));
    };
    let name_span = name.span();
    let name = name.to_string();
    match iter.next() {
        Some(TokenTree::Punct(p)) if p.as_char() == '=' => {}
        Some(other) => return Err(Error::new(other.span(), format!("expected `=` after `{name}`"))),
        None => return Err(Error::new(name_span, format!("parameter `{name}` needs a value: `{name} = ...`"))),
    }
    let rest: Vec<TokenTree> = iter.collect();
    let Some(first_value) = rest.first() else {
        return Err(Error::new(name_span, format!("parameter `{name}` needs a value after `=`")));
    };
    let value_span = first_value.span();
    let value = parse_value(&rest)?;
    Ok(Arg { name, name_span, value, value_span })
}

/// Splits a stream at commas that are not inside a group.
pub(crate) fn split_top_level_commas(tokens: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut chunks = vec![Vec::new()];
    for tt in tokens {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == ',' => chunks.push(Vec::new()),
            _ => chunks.last_mut().expect("never empty").push(tt),
        }
    }
    if chunks.last().is_some_and(Vec::is_empty) {
        chunks.pop();
    }
    chunks
}

fn parse_value(tokens: &[TokenTree]) -> Result<Value, Error> {
    match tokens {
        [TokenTree::Literal(lit)] => parse_literal(lit),
        // `true` and `false` are identifiers in token streams, not literals.
        [TokenTree::Ident(i)] if i.to_string() == "true" => Ok(Value::Bool(true)),
        [TokenTree::Ident(i)] if i.to_string() == "false" => Ok(Value::Bool(false)),
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Bracket => {
            let mut items = Vec::new();
            for item in split_top_level_commas(g.stream()) {
                let span = item.first().map_or(g.span(), TokenTree::span);
                match parse_value(&item)? {
                    Value::Int(n) => items.push((n as f64, span)),
                    Value::Float(x) => items.push((x, span)),
                    other => return Err(Error::new(span, format!("expected a number, found {}", other.kind()))),
                }
            }
            Ok(Value::List(items))
        }
        _ => Ok(Value::Tokens(tokens.iter().cloned().collect())),
    }
}

/// The contents of a string literal token, or `None` for any other literal.
pub(crate) fn parse_string_literal(lit: &Literal) -> Option<String> {
    unquote(&lit.to_string())
}

fn parse_literal(lit: &Literal) -> Result<Value, Error> {
    let text = lit.to_string();
    if let Some(s) = unquote(&text) {
        return Ok(Value::Str(s));
    }
    let digits: String = text.chars().filter(|c| *c != '_').collect();
    let numeric = digits.trim_end_matches(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E');
    if let Ok(n) = numeric.parse::<u64>() {
        return Ok(Value::Int(n));
    }
    if let Ok(x) = numeric.parse::<f64>() {
        return Ok(Value::Float(x));
    }
    Err(Error::new(lit.span(), format!("unsupported literal `{text}`")))
}

/// The contents of a string literal (`"..."` or `r#"..."#`), escapes resolved.
fn unquote(text: &str) -> Option<String> {
    if let Some(raw) = text.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let inner = raw.get(hashes..raw.len().checked_sub(hashes)?)?;
        return inner.strip_prefix('"')?.strip_suffix('"').map(str::to_owned);
    }
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            '\n' => {
                // A line continuation skips the newline and the next line's indentation.
                while chars.clone().next().is_some_and(char::is_whitespace) {
                    chars.next();
                }
            }
            'u' => {
                let braced: String = chars.by_ref().take_while(|c| *c != '}').collect();
                let code = u32::from_str_radix(braced.trim_start_matches('{'), 16).ok()?;
                out.push(char::from_u32(code)?);
            }
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).ok()?));
            }
            other => out.push(other),
        }
    }
    Some(out)
}
