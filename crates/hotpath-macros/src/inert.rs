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
