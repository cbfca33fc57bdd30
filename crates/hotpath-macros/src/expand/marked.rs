//! How a measured body runs: as written, or with `hotpath-callgrind` inside its
//! marker function (`icount.rs`). Each function returns the site `static`, the
//! marker item (empty without the feature) and the code that runs the body.

#[cfg(not(feature = "hotpath-callgrind"))]
pub(crate) use plain::*;

#[cfg(feature = "hotpath-callgrind")]
pub(crate) use with_marker::*;

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

/// Site, marker item, body.
type Parts = (TokenStream, TokenStream, TokenStream);

/// The call site: registered once on first use; its name is the label, or the
/// function's path read from the type name of a nested item. `icount` is the
/// marker tag (`hotpath-callgrind`; empty when the body runs without a marker).
fn site_static(label: Option<&str>, is_async: bool, span: Span, icount: Option<&str>) -> TokenStream {
    let name = match label {
        Some(label) => quote! { ::hotpath::__private::SiteName::Label(#label) },
        None => quote_spanned! {span=>
            ::hotpath::__private::SiteName::Path({
                fn __hotpath_fn_name() {}
                || ::core::any::type_name_of_val(&__hotpath_fn_name)
            })
        },
    };
    let icount = icount.map(|tag| quote! { .icount(#tag) });
    quote_spanned! {span=>
        static __HOTPATH_SITE: ::hotpath::__private::FnSite =
            ::hotpath::__private::FnSite::new(#name, ::core::file!(), ::core::line!(), #is_async)#icount;
    }
}

#[cfg(not(feature = "hotpath-callgrind"))]
mod plain {
    use proc_macro2::{Span, TokenStream};
    use syn::Signature;

    use super::site_static;
    use super::Parts;

    /// A sync function's statements, as written.
    pub(crate) fn sync_fn(sig: &Signature, label: Option<&str>, span: Span, stmts: TokenStream) -> Parts {
        (site_static(label, sig.asyncness.is_some(), span, None), TokenStream::new(), stmts)
    }

    /// An async function's body future, as written.
    pub(crate) fn async_fn(sig: &Signature, label: Option<&str>, span: Span, inner: TokenStream) -> Parts {
        (site_static(label, sig.asyncness.is_some(), span, None), TokenStream::new(), inner)
    }

    /// A sync `measure_block!` expression, as written.
    pub(crate) fn sync_block(label: &str, expr: TokenStream) -> Parts {
        (site_static(Some(label), false, Span::call_site(), None), TokenStream::new(), quote::quote! { (#expr) })
    }

    /// An awaiting `measure_block!`'s future, as written.
    pub(crate) fn async_block(label: &str, inner: TokenStream) -> Parts {
        (site_static(Some(label), true, Span::call_site(), None), TokenStream::new(), inner)
    }
}

#[cfg(feature = "hotpath-callgrind")]
mod with_marker {
    use proc_macro2::{Span, TokenStream};
    use quote::{quote, quote_spanned};
    use syn::Signature;

    use super::super::icount::{closure_return, escapes, never_returns, Marker};
    use super::site_static;
    use super::Parts;

    /// `__hotpath_cg_<tag>(move || -> Ret { body })`. A body that never returns runs
    /// as written: no call of its marker would ever complete (its site says so).
    pub(crate) fn sync_fn(sig: &Signature, label: Option<&str>, span: Span, stmts: TokenStream) -> Parts {
        if never_returns(&sig.output) {
            return (site_static(label, false, span, Some("")), TokenStream::new(), stmts);
        }
        let marker = Marker::new(label.unwrap_or(&sig.ident.to_string()), span);
        let (name, ret) = (&marker.name, closure_return(&sig.output));
        let run = quote_spanned! {span=> #name(move || #ret { #stmts }) };
        (site_static(label, false, span, Some(&marker.tag)), marker.sync_fn(), run)
    }

    /// The body future, polled through `__hotpath_cg_<tag>`.
    pub(crate) fn async_fn(sig: &Signature, label: Option<&str>, span: Span, inner: TokenStream) -> Parts {
        let marker = Marker::new(label.unwrap_or(&sig.ident.to_string()), span);
        let name = &marker.name;
        let inner = quote_spanned! {span=> ::hotpath::__private::Marked::new(#inner, #name) };
        (site_static(label, true, span, Some(&marker.tag)), marker.async_fn(), inner)
    }

    /// `__hotpath_cg_<tag>(|| (expr))`, borrowing what the expression borrows. An
    /// expression whose `return`, `?`, `break` or `continue` would leave the block runs
    /// as written: in a closure they would mean something else.
    pub(crate) fn sync_block(label: &str, expr: TokenStream) -> Parts {
        let span = Span::call_site();
        if escapes(expr.clone()) {
            return (site_static(Some(label), false, span, Some("")), TokenStream::new(), quote! { (#expr) });
        }
        let marker = Marker::new(label, span);
        let name = &marker.name;
        let run = quote! { #name(|| (#expr)) };
        (site_static(Some(label), false, span, Some(&marker.tag)), marker.sync_fn(), run)
    }

    /// An awaiting block's future, polled through `__hotpath_cg_<tag>`.
    pub(crate) fn async_block(label: &str, inner: TokenStream) -> Parts {
        let marker = Marker::new(label, Span::call_site());
        let name = &marker.name;
        let inner = quote! { ::hotpath::__private::Marked::new(#inner, #name) };
        (site_static(Some(label), true, Span::call_site(), Some(&marker.tag)), marker.async_fn(), inner)
    }
}
