//! `hotpath-callgrind`: each measured body runs inside a marker function of its own,
//! `__hotpath_cg_<tag>`, so that Callgrind's call graph has the body's instructions
//! under a name the runtime finds again through the site (`FnSite::icount(tag)`).
//! This is the one item the expansion adds beside the site `static`: a nested,
//! `#[inline(never)]` generic function that calls the body (a closure, or for async
//! bodies one poll). Its first statement is `black_box(<tag>)` (two instructions),
//! so that no two markers have the same code: LLVM would otherwise merge markers of
//! identical bodies into one function, and one name.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote};
use syn::visit_mut::VisitMut;
use syn::{ReturnType, Type};

/// Expansions so far in this compilation: two expansions at the same span (a
/// `macro_rules!` that emits `#[measure]` functions) still get different tags.
static EXPANSIONS: AtomicU64 = AtomicU64::new(0);

/// A marker: the tag the site records, and the function's name.
pub(crate) struct Marker {
    pub(crate) tag: String,
    pub(crate) name: Ident,
    value: u64,
}

impl Marker {
    /// A new marker for the expansion of `what` (a function name or a label) at `span`.
    pub(crate) fn new(what: &str, span: Span) -> Self {
        let mut h = DefaultHasher::new();
        // The crate keeps tags of different crates (and versions) apart.
        for var in ["CARGO_CRATE_NAME", "CARGO_PKG_NAME", "CARGO_PKG_VERSION"] {
            std::env::var(var).unwrap_or_default().hash(&mut h);
        }
        EXPANSIONS.fetch_add(1, Ordering::Relaxed).hash(&mut h);
        what.hash(&mut h);
        format!("{span:?}").hash(&mut h);
        let value = h.finish();
        let tag = format!("{value:016x}");
        let name = format_ident!("__hotpath_cg_{}", tag, span = span);
        Self { tag, name, value }
    }

    /// The marker of a sync body: calls the closure it is given.
    pub(crate) fn sync_fn(&self) -> TokenStream {
        let (name, value) = (&self.name, self.value);
        quote! {
            #[inline(never)]
            fn #name<R, F: ::core::ops::FnOnce() -> R>(f: F) -> R {
                ::core::hint::black_box(#value);
                f()
            }
        }
    }

    /// The marker of an async body: one poll of it.
    pub(crate) fn async_fn(&self) -> TokenStream {
        let (name, value) = (&self.name, self.value);
        quote! {
            #[inline(never)]
            fn #name<F: ::core::future::Future>(
                f: ::core::pin::Pin<&mut F>,
                cx: &mut ::core::task::Context<'_>,
            ) -> ::core::task::Poll<F::Output> {
                ::core::hint::black_box(#value);
                ::core::future::Future::poll(f, cx)
            }
        }
    }
}

/// The closure's declared return type: the function's, with `impl Trait` left to
/// inference (`_`), which a closure signature cannot name. Declaring it keeps `?`,
/// early `return` and coercions (`Box<dyn Trait>`, `&String` to `&str`) working as
/// in the function itself. `None` for `()`.
pub(crate) fn closure_return(output: &ReturnType) -> Option<TokenStream> {
    let ReturnType::Type(_, ty) = output else { return None };
    if matches!(&**ty, Type::Tuple(t) if t.elems.is_empty()) {
        return None;
    }
    struct Infer;
    impl VisitMut for Infer {
        fn visit_type_mut(&mut self, ty: &mut Type) {
            if let Type::ImplTrait(t) = ty {
                *ty = Type::Infer(syn::TypeInfer { underscore_token: syn::Token![_](t.impl_token.span) });
            } else {
                syn::visit_mut::visit_type_mut(self, ty);
            }
        }
    }
    let mut ty = (**ty).clone();
    Infer.visit_type_mut(&mut ty);
    Some(quote! { -> #ty })
}

/// True for `-> !`: such a body never returns, so no marker call would complete.
pub(crate) fn never_returns(output: &ReturnType) -> bool {
    matches!(output, ReturnType::Type(_, ty) if matches!(&**ty, Type::Never(_)))
}

/// True when control may leave the expression other than by its value: `return`,
/// `?`, `yield`, or `break`/`continue` outside a loop of its own (or with a label).
/// Such a `measure_block!` cannot move into a closure, which would change what those
/// mean. Async blocks inside are skipped: their `?` and `return` stay in them.
pub(crate) fn escapes(tokens: TokenStream) -> bool {
    escapes_in(tokens, false)
}

fn escapes_in(tokens: TokenStream, in_loop: bool) -> bool {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut loop_body_next = false;
    let mut async_block_next = false;
    for (i, tt) in tokens.iter().enumerate() {
        match tt {
            TokenTree::Ident(id) if id == "return" || id == "yield" => return true,
            TokenTree::Ident(id) if id == "break" || id == "continue" => {
                let labelled = matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '\'');
                if labelled || !in_loop {
                    return true;
                }
            }
            TokenTree::Ident(id) if id == "loop" || id == "while" || id == "for" => loop_body_next = true,
            TokenTree::Ident(id) if id == "async" => async_block_next = true,
            TokenTree::Punct(p) if p.as_char() == '?' => return true,
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                if async_block_next {
                    async_block_next = false;
                } else if escapes_in(g.stream(), in_loop || loop_body_next) {
                    return true;
                }
                loop_body_next = false;
            }
            TokenTree::Group(g) => {
                if escapes_in(g.stream(), in_loop) {
                    return true;
                }
            }
            TokenTree::Ident(id) if id == "move" => {}
            _ => async_block_next = false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escapes_str(s: &str) -> bool {
        escapes(s.parse().unwrap())
    }

    #[test]
    fn control_flow_that_leaves_the_block() {
        assert!(!escapes_str("work(3) + 1"));
        assert!(!escapes_str("for x in v { if x > 3 { break; } continue; }"));
        assert!(!escapes_str("loop { n += 1; if n > 9 { break n; } }"));
        assert!(!escapes_str("async move { f().await?; Ok(()) }"));
        assert!(escapes_str("parse(s)?"));
        assert!(escapes_str("if x { return 1; } 2"));
        assert!(escapes_str("{ break; }"));
        assert!(escapes_str("'outer: loop { loop { break 'outer; } }"));
        assert!(escapes_str("match x { Some(v) => v, None => continue }"));
    }

    #[test]
    fn tags_differ_per_expansion() {
        let (a, b) = (Marker::new("f", Span::call_site()), Marker::new("f", Span::call_site()));
        assert_ne!(a.tag, b.tag);
        assert_eq!(a.tag.len(), 16);
        assert_eq!(a.name.to_string(), format!("__hotpath_cg_{}", a.tag));
    }

    #[test]
    fn closure_returns_name_the_type_but_not_impl_trait() {
        let out =
            |s: &str| closure_return(&syn::parse_str::<syn::ItemFn>(s).unwrap().sig.output).map(|t| t.to_string());
        assert_eq!(out("fn f() {}"), None);
        assert_eq!(out("fn f() -> () {}"), None);
        assert_eq!(out("fn f() -> Result<u8, E> {}").unwrap(), "-> Result < u8 , E >");
        assert_eq!(out("fn f() -> Box<impl Fn() -> u8> {}").unwrap(), "-> Box < _ >");
        assert!(never_returns(&syn::parse_str::<syn::ItemFn>("fn f() -> ! {}").unwrap().sig.output));
    }
}
