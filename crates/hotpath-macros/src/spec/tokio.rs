//! `tokio_runtime!([handle] [, label = "..."])`.

use proc_macro::{Span, TokenStream, TokenTree};

use super::common::{label_value, unknown};
use crate::args;
use crate::error::{Collector, Error, Errors};

/// Arguments of `tokio_runtime!([handle] [, label = "..."])`.
pub(crate) struct TokioRuntimeArgs {
    /// The runtime handle expression; `None` monitors the current runtime.
    pub(crate) handle: Option<TokenStream>,
    /// Checked in both modes, kept only for the expansion with `hotpath` on.
    #[cfg(feature = "hotpath")]
    pub(crate) label: Option<String>,
}

/// Splits `tokio_runtime!` arguments: an optional handle expression first, then
/// `name = value` parameters. A chunk is a parameter when it starts `ident =`
/// (a lone `=`, so `a == b` stays an expression).
pub(crate) fn tokio_runtime_args(tokens: TokenStream) -> Result<TokioRuntimeArgs, Errors> {
    let mut errors = Collector::default();
    let usage = "expected `tokio_runtime!()`, `tokio_runtime!(&handle)` or either with `label = \"...\"`";
    let mut out = TokioRuntimeArgs {
        handle: None,
        #[cfg(feature = "hotpath")]
        label: None,
    };
    let mut params = TokenStream::new();
    for (i, chunk) in crate::exprs::split(tokens).into_iter().enumerate() {
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
            errors.push(Error::new(span, what));
        }
    }
    for arg in args::parse(params, &mut errors) {
        match arg.name.as_str() {
            "label" => keep!(out.label, errors.ok(label_value(&arg))),
            _ => errors.push(unknown(&arg, "hotpath::tokio_runtime!", &["label"])),
        }
    }
    errors.finish(out)
}
