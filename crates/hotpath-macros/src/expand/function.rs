//! `#[hotpath::measure]` and `#[hotpath::measure_all]`.
//!
//! A sync function gets a guard as its first statement, so early `return`, `?` and
//! panics are all measured. An async function's body moves into an inner `async move`
//! block wrapped by `MeasuredFuture`, which times each poll on whichever thread runs it.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Attribute, Block, ImplItem, Item, ReturnType, Signature, Type};

use super::marked;

pub(crate) fn measure(label: Option<String>, item: TokenStream) -> TokenStream {
    let mut function: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(e) => return with_error(item, e.span(), "#[hotpath::measure] applies to a function or method with a body"),
    };
    match instrument(&function.sig, &mut function.block, label.as_deref()) {
        Ok(()) => quote! { #function },
        Err(e) => with_error(item, e.span(), &e.to_string()),
    }
}

pub(crate) fn measure_all(item: TokenStream) -> TokenStream {
    let mut parsed: Item = match syn::parse2(item.clone()) {
        Ok(i) => i,
        Err(e) => return with_error(item, e.span(), "#[hotpath::measure_all] applies to an `impl` block or a `mod`"),
    };
    let result = match &mut parsed {
        Item::Impl(block) => instrument_impl(block),
        Item::Mod(module) => match &mut module.content {
            Some((_, items)) => items.iter_mut().try_for_each(instrument_item),
            None => Err(syn::Error::new(
                module.span(),
                "#[hotpath::measure_all] needs an inline module (`mod name { ... }`)",
            )),
        },
        other => Err(syn::Error::new(other.span(), "#[hotpath::measure_all] applies to an `impl` block or a `mod`")),
    };
    match result {
        Ok(()) => quote! { #parsed },
        Err(e) => with_error(item, e.span(), &e.to_string()),
    }
}

fn instrument_item(item: &mut Item) -> syn::Result<()> {
    match item {
        Item::Fn(f) if wants_measure(&f.attrs, &f.sig) => instrument(&f.sig, &mut f.block, None),
        Item::Impl(block) => instrument_impl(block),
        _ => Ok(()),
    }
}

fn instrument_impl(block: &mut syn::ItemImpl) -> syn::Result<()> {
    for item in &mut block.items {
        if let ImplItem::Fn(f) = item {
            if wants_measure(&f.attrs, &f.sig) {
                instrument(&f.sig, &mut f.block, None)?;
            }
        }
    }
    Ok(())
}

/// Skips `#[hotpath::skip]`, functions already carrying `#[hotpath::measure]`, and
/// `const fn`s (a guard cannot run in const context).
fn wants_measure(attrs: &[Attribute], sig: &Signature) -> bool {
    let named = |name: &str| attrs.iter().any(|a| a.path().segments.last().is_some_and(|s| s.ident == name));
    sig.constness.is_none() && !named("skip") && !named("measure")
}

fn instrument(sig: &Signature, block: &mut Block, label: Option<&str>) -> syn::Result<()> {
    if let Some(c) = sig.constness {
        return Err(syn::Error::new(c.span, "a `const fn` cannot be measured"));
    }
    let span = sig.ident.span();
    let is_async = sig.asyncness.is_some();
    let stmts = std::mem::take(&mut block.stmts);
    let body = if is_async {
        let pin_output = fake_return(&sig.output);
        let inner = quote_spanned! {span=>
            async move {
                #pin_output
                #(#stmts)*
            }
        };
        let (site, marker, inner) = marked::async_fn(sig, label, span, inner);
        quote_spanned! {span=>
            #site
            #marker
            ::hotpath::__private::MeasuredFuture::new(&__HOTPATH_SITE, #inner).await
        }
    } else {
        let (site, marker, run) = marked::sync_fn(sig, label, span, quote! { #(#stmts)* });
        quote_spanned! {span=>
            #site
            let __hotpath_guard = ::hotpath::__private::FnGuard::enter(&__HOTPATH_SITE);
            #marker
            #run
        }
    };
    *block = syn::parse2(quote! { { #body } })?;
    Ok(())
}

/// Pins the inner async block's output type to the declared return type, so `?`
/// inside it converts errors exactly as in the original function. Not possible for
/// `impl Trait` returns, which need no help because they cannot use `?` conversion.
fn fake_return(output: &ReturnType) -> TokenStream {
    let ReturnType::Type(_, ty) = output else { return TokenStream::new() };
    if contains_impl_trait(ty) {
        return TokenStream::new();
    }
    quote! {
        #[allow(unreachable_code, clippy::diverging_sub_expression, clippy::let_unit_value, clippy::needless_return)]
        let () = if false {
            let __hotpath_return: #ty = loop {};
            return __hotpath_return;
        };
    }
}

fn contains_impl_trait(ty: &Type) -> bool {
    struct Finder(bool);
    impl Visit<'_> for Finder {
        fn visit_type_impl_trait(&mut self, _: &syn::TypeImplTrait) {
            self.0 = true;
        }
    }
    let mut finder = Finder(false);
    finder.visit_type(ty);
    finder.0
}

fn with_error(mut item: TokenStream, span: Span, message: &str) -> TokenStream {
    item.extend(syn::Error::new(span, message).to_compile_error());
    item
}
