//! `measure_block!(label, expr)`: a guard around a sync expression, or a measured
//! future around an expression that awaits. A literal label names one static site; a
//! label expression is evaluated on each pass and picks the site of its text.
//!
//! The row is named by the label alone (that is what users search for); its `file`
//! and `line` say where the block is.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::quote;

use super::marked::{self, Marked};
use super::site::{dyn_sites_static, runtime_label, site_static_with, Kind, Name};
use crate::spec::Label;

pub(crate) fn block(label: Label, expr: TokenStream) -> TokenStream {
    let awaits = contains_await(expr.clone());
    let kind = Kind::Function { is_async: awaits };
    // A label computed at run time picks one of many sites, so its body has no marker
    // function of its own (`hotpath-callgrind`): it runs as written.
    let literal = match label {
        Label::Literal(literal) => literal,
        Label::Expr(label) => {
            let label: TokenStream = label.into();
            let statics = dyn_sites_static(kind);
            let label = runtime_label(&label);
            let site = quote! { #statics #label };
            let site_ref = quote! { __HOTPATH_SITES.site(&__hotpath_label) };
            return measured(
                awaits,
                site,
                site_ref,
                TokenStream::new(),
                quote! { async { #expr } },
                quote! { (#expr) },
            );
        }
    };
    let literal = literal.as_str();
    let name = Name::Label(literal);
    let site_ref = quote! { &__HOTPATH_SITE };
    if awaits {
        let Marked { suffix, marker, run } = marked::async_block(literal, quote! { async { #expr } });
        let site = site_static_with(&name, kind, Span::call_site(), suffix);
        measured(true, site, site_ref, marker, run, TokenStream::new())
    } else {
        let Marked { suffix, marker, run } = marked::sync_block(literal, expr);
        let site = site_static_with(&name, kind, Span::call_site(), suffix);
        measured(false, site, site_ref, marker, TokenStream::new(), run)
    }
}

/// The expansion: `site` defines what `site_ref` names, in the same block; `future` is
/// the awaiting body, `run` the sync one.
fn measured(
    awaits: bool,
    site: TokenStream,
    site_ref: TokenStream,
    marker: TokenStream,
    future: TokenStream,
    run: TokenStream,
) -> TokenStream {
    if awaits {
        // The awaiting part runs as its own future so each poll is timed on the thread
        // that polls it; `return` and `?` inside it apply to the block, as in `async {}`.
        quote! {
            ::hotpath::__private::MeasuredFuture::new({ #site #site_ref }, { #marker #future }).await
        }
    } else {
        quote! {
            {
                #site
                let __hotpath_guard = ::hotpath::__private::FnGuard::enter(#site_ref);
                #marker
                // Parenthesized so a braced argument is not linted as a redundant block.
                #run
            }
        }
    }
}

/// True when `.await` appears outside any nested `async` block or closure.
fn contains_await(tokens: TokenStream) -> bool {
    let mut prev_dot = false;
    let mut after_async = false;
    for tt in tokens {
        match &tt {
            TokenTree::Ident(i) if prev_dot && i == "await" => return true,
            TokenTree::Ident(i) if i == "async" => after_async = true,
            TokenTree::Ident(i) if after_async && i == "move" => {}
            TokenTree::Group(g) if after_async && g.delimiter() == Delimiter::Brace => after_async = false,
            TokenTree::Group(g) => {
                if contains_await(g.stream()) {
                    return true;
                }
                after_async = false;
            }
            _ => after_async = false,
        }
        prev_dot = matches!(&tt, TokenTree::Punct(p) if p.as_char() == '.');
    }
    false
}
