//! What the function attributes are applied to, checked on the tokens (no `syn`) so
//! that misuse is the same compile error with the feature on and off.

use proc_macro::{Delimiter, Span, TokenStream, TokenTree};

use crate::error::Error;

/// Checks that `macro_name` sits on a non-`const` function with a body; `must_be_async`
/// names the parameter (or attribute) that needs an `async fn`.
pub(crate) fn measured_item(item: &TokenStream, macro_name: &str, must_be_async: Option<&str>) -> Result<(), Error> {
    let mut is_async = false;
    let mut fn_span = None;
    for tt in item.clone() {
        if let TokenTree::Ident(ident) = &tt {
            match ident.to_string().as_str() {
                "const" if fn_span.is_none() => {
                    return Err(Error::new(ident.span(), "a `const fn` cannot be measured"));
                }
                "async" if fn_span.is_none() => is_async = true,
                "fn" if fn_span.is_none() => fn_span = Some(ident.span()),
                _ => {}
            }
        }
    }
    let Some(fn_span) = fn_span else {
        return Err(Error::new(first_ident_span(item), format!("{macro_name} applies to a function or method")));
    };
    let has_body =
        matches!(item.clone().into_iter().last(), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace);
    if !has_body {
        return Err(Error::new(
            fn_span,
            format!(
                "{macro_name} needs a function body: a trait method without one has nothing to measure; \
                 put the attribute on the methods of the impl blocks instead"
            ),
        ));
    }
    if let (Some(what), false) = (must_be_async, is_async) {
        return Err(Error::new(fn_span, format!("{what} can only be used on async functions")));
    }
    Ok(())
}

/// Checks that `#[measure_all]` sits on an `impl` block or a `mod`: the first keyword
/// after attributes, visibility and `unsafe` must be one of them.
pub(crate) fn measured_container(item: &TokenStream) -> Result<(), Error> {
    let mut tokens = item.clone().into_iter().peekable();
    while let Some(tt) = tokens.next() {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                tokens.next(); // the attribute's [...] group
            }
            TokenTree::Ident(i) if i.to_string() == "pub" => {
                if matches!(tokens.peek(), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis) {
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
