//! Compile errors built from `proc_macro` tokens alone, so the off mode needs no `syn`.

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// A message to report at a span of the user's tokens.
pub(crate) struct Error {
    pub(crate) span: Span,
    pub(crate) message: String,
}

impl Error {
    pub(crate) fn new(span: Span, message: impl Into<String>) -> Self {
        Self { span, message: message.into() }
    }

    /// `::core::compile_error! { "message" }` with every token at the error's span,
    /// valid in item, statement and expression position.
    pub(crate) fn to_tokens(&self) -> TokenStream {
        let span = self.span;
        let mut msg = Literal::string(&self.message);
        msg.set_span(span);
        let mut body = Group::new(Delimiter::Brace, TokenTree::from(msg).into());
        body.set_span(span);
        let colon = |spacing| {
            let mut p = Punct::new(':', spacing);
            p.set_span(span);
            TokenTree::from(p)
        };
        let mut bang = Punct::new('!', Spacing::Alone);
        bang.set_span(span);
        [
            colon(Spacing::Joint),
            colon(Spacing::Alone),
            Ident::new("core", span).into(),
            colon(Spacing::Joint),
            colon(Spacing::Alone),
            Ident::new("compile_error", span).into(),
            bang.into(),
            body.into(),
        ]
        .into_iter()
        .collect()
    }
}

/// The user's item unchanged, followed by the error, so IDEs keep resolving the item.
pub(crate) fn with_item(error: &Error, item: TokenStream) -> TokenStream {
    let mut out = item;
    out.extend(error.to_tokens());
    out
}
