//! `measure_block!(label, expr)`: a guard around a sync expression, or a measured
//! future around an expression that awaits. A literal label names one static site; a
//! label expression is evaluated on each pass and picks the site of its text.
//!
//! The row is named by the label alone (that is what users search for); its `file`
//! and `line` say where the block is.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::quote;

use super::site::{dyn_sites_static, runtime_label, site_static, Kind, Name};
use crate::spec::Label;

pub(crate) fn block(label: Label, expr: TokenStream) -> TokenStream {
    let awaits = contains_await(expr.clone());
    let kind = Kind::Function { is_async: awaits };
    // `site` defines what `site_ref` names, in the same block.
    let (site, site_ref) = match &label {
        Label::Literal(label) => {
            (site_static(&Name::Label(label), kind, Span::call_site()), quote! { &__HOTPATH_SITE })
        }
        Label::Expr(expr) => {
            let expr: TokenStream = expr.clone().into();
            let statics = dyn_sites_static(kind);
            let label = runtime_label(&expr);
            (quote! { #statics #label }, quote! { __HOTPATH_SITES.site(&__hotpath_label) })
        }
    };
    if awaits {
        // The awaiting part runs as its own future so each poll is timed on the thread
        // that polls it; `return` and `?` inside it apply to the block, as in `async {}`.
        quote! {
            ::hotpath::__private::MeasuredFuture::new({ #site #site_ref }, async { #expr }).await
        }
    } else {
        quote! {
            {
                #site
                let __hotpath_guard = ::hotpath::__private::FnGuard::enter(#site_ref);
                // Parenthesized so a braced argument is not linted as a redundant block.
                (#expr)
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
