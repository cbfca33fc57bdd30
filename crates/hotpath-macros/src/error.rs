//! Compile errors built from `proc_macro` tokens alone, so the off mode needs no `syn`.

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// A message to report at a span of the user's tokens.
pub(crate) struct Error {
    pub(crate) span: Span,
    pub(crate) message: String,
}

/// Every problem found in one macro call: all are reported at once, each at its span,
/// so fixing one does not reveal the next.
pub(crate) struct Errors(pub(crate) Vec<Error>);

impl From<Error> for Errors {
    fn from(e: Error) -> Self {
        Self(vec![e])
    }
}

impl Errors {
    /// One `compile_error!` per problem.
    pub(crate) fn to_tokens(&self) -> TokenStream {
        self.0.iter().map(Error::to_tokens).collect()
    }
}

/// Collects the errors of a parse that goes on after the first one.
#[derive(Default)]
pub(crate) struct Collector(Vec<Error>);

impl Collector {
    pub(crate) fn push(&mut self, e: Error) {
        self.0.push(e);
    }

    /// Keeps the value, or records the error and gives `None`.
    pub(crate) fn ok<T>(&mut self, r: Result<T, Error>) -> Option<T> {
        r.map_err(|e| self.push(e)).ok()
    }

    /// `value` when nothing was recorded, else every recorded error.
    pub(crate) fn finish<T>(self, value: T) -> Result<T, Errors> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(Errors(self.0))
        }
    }
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

/// The user's item unchanged, followed by the errors, so IDEs keep resolving the item.
pub(crate) fn with_item(errors: &Errors, item: TokenStream) -> TokenStream {
    let mut out = item;
    out.extend(errors.to_tokens());
    out
}
