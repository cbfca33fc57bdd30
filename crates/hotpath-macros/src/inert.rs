//! Off-mode expansions that are more than the input returned as is. Built from
//! `proc_macro` tokens with the user's spans, so type errors still point at their code.

use proc_macro::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};

/// `tokio_runtime!` off: `()`, or `{ let _ = &(handle); }` so the handle is still
/// type-checked without naming any Tokio type.
pub(crate) fn tokio_runtime(handle: Option<TokenStream>) -> TokenStream {
    let Some(handle) = handle else {
        return TokenTree::from(Group::new(Delimiter::Parenthesis, TokenStream::new())).into();
    };
    let span = handle.clone().into_iter().next().map_or_else(Span::call_site, |t| t.span());
    let body: TokenStream = [
        TokenTree::from(Ident::new("let", span)),
        Ident::new("_", span).into(),
        Punct::new('=', Spacing::Alone).into(),
        Punct::new('&', Spacing::Alone).into(),
        Group::new(Delimiter::Parenthesis, handle).into(),
        Punct::new(';', Spacing::Alone).into(),
    ]
    .into_iter()
    .collect();
    TokenTree::from(Group::new(Delimiter::Brace, body)).into()
}

/// A wrapping macro's output without the feature: the expression as written. When the
/// call has a label (or capacity) expression or a note, the expression's value passes
/// through a `match` (which keeps its temporaries alive as long as a plain expression
/// would) so that the label is type-checked and its variables count as used, in a
/// branch that never runs, and the notes warn:
/// `match (expr) { v => { <notes> if false { let _ = &(label); } v } }`.
pub(crate) fn passthrough(expr: TokenStream, unevaluated: &[TokenStream], notes: &[crate::note::Note]) -> TokenStream {
    let expr = TokenTree::from(Group::new(Delimiter::Parenthesis, expr));
    if unevaluated.is_empty() && notes.is_empty() {
        return expr.into();
    }
    let span = Span::call_site();
    let value = || TokenTree::from(Ident::new("__hotpath_value", span));
    let mut dead = TokenStream::new();
    for tokens in unevaluated {
        dead.extend([
            TokenTree::from(Ident::new("let", span)),
            Ident::new("_", span).into(),
            Punct::new('=', Spacing::Alone).into(),
            Punct::new('&', Spacing::Alone).into(),
            Group::new(Delimiter::Parenthesis, tokens.clone()).into(),
            Punct::new(';', Spacing::Alone).into(),
        ]);
    }
    let mut arm = crate::note::statements(notes);
    if !dead.is_empty() {
        arm.extend([
            TokenTree::from(Ident::new("if", span)),
            Ident::new("false", span).into(),
            Group::new(Delimiter::Brace, dead).into(),
        ]);
    }
    arm.extend([value()]);
    let arms: TokenStream = [
        value(),
        Punct::new('=', Spacing::Joint).into(),
        Punct::new('>', Spacing::Alone).into(),
        Group::new(Delimiter::Brace, arm).into(),
    ]
    .into_iter()
    .collect();
    [TokenTree::from(Ident::new("match", span)), expr, Group::new(Delimiter::Brace, arms).into()].into_iter().collect()
}
