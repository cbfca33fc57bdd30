//! `#[hotpath::measure]`, `#[hotpath::future_fn]` and `#[hotpath::measure_all]`.
//!
//! A sync function gets a guard as its first statement, so early `return`, `?` and
//! panics are all measured. An async function's body moves into an inner `async move`
//! block wrapped by `MeasuredFuture`, which times each poll on whichever thread runs it.
//! With `log = true` the result is kept before it is returned: a sync body runs in a
//! closure called once (so `return` inside it still yields the result), an async body's
//! output is logged after the await.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Attribute, Block, ImplItem, Item, ReturnType, Signature, Type};

use super::marked::{self, Marked};
use super::site::{log_value, site_static_with, Kind, Name};
use crate::spec::MeasureArgs;

pub(crate) fn measure(args: &MeasureArgs, item: TokenStream) -> TokenStream {
    let mut function: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(e) => return with_error(item, e.span(), "#[hotpath::measure] applies to a function or method with a body"),
    };
    match instrument(&function.sig, &mut function.block, args) {
        Ok(()) => quote! { #function },
        Err(e) => with_error(item, e.span(), &e.to_string()),
    }
}

pub(crate) fn measure_all(args: &MeasureArgs, item: TokenStream) -> TokenStream {
    let mut parsed: Item = match syn::parse2(item.clone()) {
        Ok(i) => i,
        Err(e) => return with_error(item, e.span(), "#[hotpath::measure_all] applies to an `impl` block or a `mod`"),
    };
    let result = match &mut parsed {
        Item::Impl(block) => instrument_impl(block, args),
        Item::Mod(module) => match &mut module.content {
            Some((_, items)) => items.iter_mut().try_for_each(|i| instrument_item(i, args)),
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

fn instrument_item(item: &mut Item, args: &MeasureArgs) -> syn::Result<()> {
    match item {
        Item::Fn(f) if wants_measure(&f.attrs, &f.sig) => instrument(&f.sig, &mut f.block, args),
        Item::Impl(block) => instrument_impl(block, args),
        _ => Ok(()),
    }
}

fn instrument_impl(block: &mut syn::ItemImpl, args: &MeasureArgs) -> syn::Result<()> {
    for item in &mut block.items {
        if let ImplItem::Fn(f) = item {
            if wants_measure(&f.attrs, &f.sig) {
                instrument(&f.sig, &mut f.block, args)?;
            }
        }
    }
    Ok(())
}

/// Skips `#[hotpath::skip]`, functions already carrying `#[hotpath::measure]` (or
/// `future_fn`), and `const fn`s (a guard cannot run in const context).
fn wants_measure(attrs: &[Attribute], sig: &Signature) -> bool {
    let named = |name: &str| attrs.iter().any(|a| a.path().segments.last().is_some_and(|s| s.ident == name));
    sig.constness.is_none() && !named("skip") && !named("measure") && !named("future_fn")
}

fn instrument(sig: &Signature, block: &mut Block, args: &MeasureArgs) -> syn::Result<()> {
    if let Some(c) = sig.constness {
        return Err(syn::Error::new(c.span, "a `const fn` cannot be measured"));
    }
    let span = sig.ident.span();
    let is_async = sig.asyncness.is_some();
    let function = sig.ident.to_string();
    let marker_name = args.label.clone().unwrap_or_else(|| function.clone());
    let name = match (&args.label, &args.impl_type) {
        (Some(label), _) => Name::Label(label),
        (None, Some(ty)) => Name::Typed { ty, function },
        (None, None) => Name::Path,
    };
    let kind = if args.future_only && is_async { Kind::Future } else { Kind::Function { is_async } };
    let stmts = std::mem::take(&mut block.stmts);
    let ret_span = match &sig.output {
        ReturnType::Type(_, ty) => ty.span(),
        ReturnType::Default => span,
    };
    let over = args.timeline_over_ns.map(|ns| quote! { .timeline_over(#ns) });
    let log = (args.log || args.log_if_debug)
        .then(|| log_value(quote! { &__HOTPATH_SITE }, quote! { __hotpath_value }, args.log_if_debug, ret_span));
    let body = if is_async {
        let pin_output = fake_return(&sig.output);
        let inner = quote_spanned! {span=>
            async move {
                #pin_output
                #(#stmts)*
            }
        };
        let Marked { suffix, marker, run } = marked::async_fn(&marker_name, span, inner);
        let site = site_static_with(&name, kind, span, quote! { #suffix #over });
        let measured = quote_spanned! {span=>
            ::hotpath::__private::MeasuredFuture::new(&__HOTPATH_SITE, #run).await
        };
        match log {
            None => quote! { #site #marker #measured },
            Some(log) => quote! {
                #site
                #marker
                let __hotpath_value = #measured;
                #log
                __hotpath_value
            },
        }
    } else {
        let Marked { suffix, marker, run } = marked::sync_fn(&sig.output, &marker_name, span, quote! { #(#stmts)* });
        let site = site_static_with(&name, kind, span, quote! { #suffix #over });
        let guard = quote_spanned! {span=>
            let __hotpath_guard = ::hotpath::__private::FnGuard::enter(&__HOTPATH_SITE);
        };
        match log {
            None => quote! { #site #guard #marker #run },
            Some(log) => {
                let ret = closure_return(&sig.output);
                quote! {
                    #site
                    #guard
                    #marker
                    // Called once, so the body may move out of its captures and return
                    // references borrowed from the arguments.
                    let __hotpath_value = ::hotpath::__private::call_once(move || #ret { #run });
                    #log
                    __hotpath_value
                }
            }
        }
    };
    *block = syn::parse2(quote! { { #body } })?;
    Ok(())
}

/// `-> T` for the closure that runs a logged sync body, so `?` converts errors as in
/// the function; omitted for `impl Trait` returns, which a closure cannot name.
fn closure_return(output: &ReturnType) -> TokenStream {
    match output {
        ReturnType::Type(_, ty) if !contains_impl_trait(ty) => quote! { -> #ty },
        _ => TokenStream::new(),
    }
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
