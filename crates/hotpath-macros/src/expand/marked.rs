//! How a measured body runs: as written, or with `hotpath-callgrind` inside its
//! marker function (`icount.rs`). Each function returns what to append to the site's
//! constructor (`.icount(tag)`; empty without the feature), the marker item (empty
//! without the feature) and the code that runs the body.

#[cfg(not(feature = "hotpath-callgrind"))]
pub(crate) use plain::*;

#[cfg(feature = "hotpath-callgrind")]
pub(crate) use with_marker::*;

use proc_macro2::TokenStream;

/// Site constructor suffix, marker item, body.
pub(crate) struct Marked {
    pub(crate) suffix: TokenStream,
    pub(crate) marker: TokenStream,
    pub(crate) run: TokenStream,
}

#[cfg(not(feature = "hotpath-callgrind"))]
mod plain {
    use proc_macro2::{Span, TokenStream};
    use quote::quote;
    use syn::ReturnType;

    use super::Marked;

    fn as_written(run: TokenStream) -> Marked {
        Marked { suffix: TokenStream::new(), marker: TokenStream::new(), run }
    }

    /// A sync function's statements, as written.
    pub(crate) fn sync_fn(_: &ReturnType, _: &str, _: Span, stmts: TokenStream) -> Marked {
        as_written(stmts)
    }

    /// An async function's body future, as written.
    pub(crate) fn async_fn(_: &str, _: Span, inner: TokenStream) -> Marked {
        as_written(inner)
    }

    /// A sync `measure_block!` expression, as written.
    pub(crate) fn sync_block(_: &str, expr: TokenStream) -> Marked {
        as_written(quote! { (#expr) })
    }

    /// An awaiting `measure_block!`'s future, as written.
    pub(crate) fn async_block(_: &str, inner: TokenStream) -> Marked {
        as_written(inner)
    }
}

#[cfg(feature = "hotpath-callgrind")]
mod with_marker {
    use proc_macro2::{Span, TokenStream};
    use quote::{quote, quote_spanned};
    use syn::ReturnType;

    use super::super::icount::{closure_return, escapes, never_returns, Marker};
    use super::Marked;

    /// A body that runs as written, its site saying it could not be wrapped.
    fn unmarked(run: TokenStream) -> Marked {
        Marked { suffix: quote! { .icount("") }, marker: TokenStream::new(), run }
    }

    fn marked(marker: &Marker, item: TokenStream, run: TokenStream) -> Marked {
        let tag = &marker.tag;
        Marked { suffix: quote! { .icount(#tag) }, marker: item, run }
    }

    /// `__hotpath_cg_<tag>(move || -> Ret { body })`. A body that never returns runs
    /// as written: no call of its marker would ever complete (its site says so).
    pub(crate) fn sync_fn(output: &ReturnType, what: &str, span: Span, stmts: TokenStream) -> Marked {
        if never_returns(output) {
            return unmarked(stmts);
        }
        let marker = Marker::new(what, span);
        let (name, ret) = (&marker.name, closure_return(output));
        let run = quote_spanned! {span=> #name(move || #ret { #stmts }) };
        marked(&marker, marker.sync_fn(), run)
    }

    /// The body future, polled through `__hotpath_cg_<tag>`.
    pub(crate) fn async_fn(what: &str, span: Span, inner: TokenStream) -> Marked {
        let marker = Marker::new(what, span);
        let name = &marker.name;
        let inner = quote_spanned! {span=> ::hotpath::__private::Marked::new(#inner, #name) };
        marked(&marker, marker.async_fn(), inner)
    }

    /// `__hotpath_cg_<tag>(|| (expr))`, borrowing what the expression borrows. An
    /// expression whose `return`, `?`, `break` or `continue` would leave the block runs
    /// as written: in a closure they would mean something else.
    pub(crate) fn sync_block(what: &str, expr: TokenStream) -> Marked {
        if escapes(expr.clone()) {
            return unmarked(quote! { (#expr) });
        }
        let marker = Marker::new(what, Span::call_site());
        let name = &marker.name;
        let run = quote! { #name(|| (#expr)) };
        marked(&marker, marker.sync_fn(), run)
    }

    /// An awaiting block's future, polled through `__hotpath_cg_<tag>`.
    pub(crate) fn async_block(what: &str, inner: TokenStream) -> Marked {
        let marker = Marker::new(what, Span::call_site());
        let name = &marker.name;
        let inner = quote! { ::hotpath::__private::Marked::new(#inner, #name) };
        marked(&marker, marker.async_fn(), inner)
    }
}
