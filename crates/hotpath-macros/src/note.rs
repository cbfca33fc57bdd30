//! Compile-time notes for parameters hotpath accepts but does not act on (older
//! spellings such as `channel!(.., proxy = true)`): a `#[deprecated]` constant used at
//! the parameter's span, so the build warns there and still succeeds. Built from
//! `proc_macro` tokens, so both modes warn alike.

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// A parameter that is accepted and ignored, and why.
pub(crate) struct Note {
    pub(crate) name: String,
    pub(crate) span: Span,
    pub(crate) message: String,
}

/// Statements that warn once per note: `#[deprecated(note = "..")] const p: () = (); let () = p;`.
pub(crate) fn statements(notes: &[Note]) -> TokenStream {
    let mut out = TokenStream::new();
    for note in notes {
        let name = format!("hotpath_ignores_{}", note.name);
        let attr = format!(
            "#[deprecated(note = {})] #[allow(non_upper_case_globals, dead_code)] const {name}: () = ();",
            Literal::string(&format!("hotpath: {}", note.message))
        );
        out.extend(attr.parse::<TokenStream>().expect("valid tokens"));
        // The use carries the user's span: the warning points at the parameter, and is
        // not hidden as coming from a macro.
        let use_site: TokenStream = [
            TokenTree::from(Ident::new("let", note.span)),
            Group::new(Delimiter::Parenthesis, TokenStream::new()).into(),
            Punct::new('=', Spacing::Alone).into(),
            Ident::new(&name, note.span).into(),
            Punct::new(';', Spacing::Alone).into(),
        ]
        .into_iter()
        .collect();
        out.extend(use_site);
    }
    out
}

/// The notes as an item: `const _: () = { .. };`, for attribute macros on items.
pub(crate) fn item(notes: &[Note]) -> TokenStream {
    if notes.is_empty() {
        return TokenStream::new();
    }
    let mut out: TokenStream = "const _: () =".parse().expect("valid tokens");
    out.extend([
        TokenTree::from(Group::new(Delimiter::Brace, statements(notes))),
        Punct::new(';', Spacing::Alone).into(),
    ]);
    out
}
