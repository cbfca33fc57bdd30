//! `measure_block!(label, expr)`: a guard around a sync expression, or a measured
//! future around an expression that awaits.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::quote;

use super::marked;

pub(crate) fn block(label: &str, expr: TokenStream) -> TokenStream {
    if contains_await(expr.clone()) {
        // The awaiting part runs as its own future so each poll is timed on the thread
        // that polls it; `return` and `?` inside it apply to the block, as in `async {}`.
        let (site, marker, inner) = marked::async_block(label, quote! { async { #expr } });
        quote! {
            { #site #marker ::hotpath::__private::MeasuredFuture::new(&__HOTPATH_SITE, #inner) }.await
        }
    } else {
        // Parenthesized so a braced argument is not linted as a redundant block.
        let (site, marker, run) = marked::sync_block(label, expr);
        quote! {
            {
                #site
                let __hotpath_guard = ::hotpath::__private::FnGuard::enter(&__HOTPATH_SITE);
                #marker
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
