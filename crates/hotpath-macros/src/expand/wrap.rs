//! The wrapping macros: the value first (so `?` and `.await` in it behave as without
//! the macro), then a `static` site, the label when it is computed at run time, and one
//! call into `::hotpath::__private` that wraps the value.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use super::site::{dyn_sites_static, runtime_label, site_static, Kind, Name};
use crate::spec::Label;
use crate::wrap_spec::{WrapArgs, WrapMacro, CHANNEL, FUTURE, IO, MUTEX, RW_LOCK, STREAM};

pub(crate) fn wrap(spec: WrapMacro, args: WrapArgs) -> TokenStream {
    let notes: TokenStream = crate::note::statements(&args.notes).into();
    let expr: TokenStream = args.expr.clone().into();
    let body =
        if spec.name == FUTURE.name { future(&args.label, args.log, expr) } else { entry_wrap(spec, &args, expr) };
    quote! { { #notes #body } }
}

/// `future!`: an `FnSite` reported in the futures section; a run-time label picks the
/// site of its text.
fn future(label: &Option<Label>, log: bool, expr: TokenStream) -> TokenStream {
    let (site, site_ref) = match label {
        Some(Label::Expr(label)) => {
            let label = runtime_label(&label.clone().into());
            let statics = dyn_sites_static(Kind::Future);
            (quote! { #statics #label }, quote! { __HOTPATH_SITES.site(&__hotpath_label) })
        }
        Some(Label::Literal(label)) => {
            (site_static(&Name::Label(label), Kind::Future, Span::call_site()), quote! { &__HOTPATH_SITE })
        }
        None => {
            let static_site = quote! {
                static __HOTPATH_SITE: ::hotpath::__private::FnSite = ::hotpath::__private::FnSite::future(
                    ::hotpath::__private::SiteName::Label(::core::concat!(::core::file!(), ":", ::core::line!())),
                    ::core::file!(),
                    ::core::line!(),
                );
            };
            (static_site, quote! { &__HOTPATH_SITE })
        }
    };
    let wrapped = if log {
        quote! { ::hotpath::__private::future_logged(#site_ref, __hotpath_value) }
    } else {
        quote! {
            ::hotpath::__private::MeasuredFuture::new(#site_ref, ::core::future::IntoFuture::into_future(__hotpath_value))
        }
    };
    quote! {
        let __hotpath_value = #expr;
        #site
        #wrapped
    }
}

/// The instruments with entries (`stream!`, `channel!`, `mutex!`, `rw_lock!`, `io!`):
/// a `Site` of the instrument's type, keyed at run time by the value's type and label.
fn entry_wrap(spec: WrapMacro, args: &WrapArgs, expr: TokenStream) -> TokenStream {
    let (literal, label_stmts, label_arg) = match &args.label {
        Some(Label::Literal(label)) => (
            quote! { ::core::option::Option::Some(#label) },
            TokenStream::new(),
            quote! { ::core::option::Option::None },
        ),
        Some(Label::Expr(label)) => (
            quote! { ::core::option::Option::None },
            runtime_label(&label.clone().into()),
            quote! { ::core::option::Option::Some(&*__hotpath_label) },
        ),
        None => (quote! { ::core::option::Option::None }, TokenStream::new(), quote! { ::core::option::Option::None }),
    };
    let iter = args.iter;
    let site_type = Ident::new(site_type(spec), Span::call_site());
    let call = match spec.name {
        name if name == IO.name => {
            quote! { ::hotpath::__private::Io::new(&__HOTPATH_SITE, #label_arg, __hotpath_value) }
        }
        name if name == CHANNEL.name => {
            let capacity = match &args.capacity {
                Some(capacity) => {
                    let capacity: TokenStream = capacity.clone().into();
                    quote! { ::core::option::Option::Some({ let __hotpath_capacity: usize = #capacity; __hotpath_capacity }) }
                }
                None => quote! { ::core::option::Option::None },
            };
            let function = if args.log {
                quote! { channel_logged }
            } else {
                quote! { channel }
            };
            quote! { ::hotpath::__private::#function(&__HOTPATH_SITE, #label_arg, #capacity, __hotpath_value) }
        }
        name if name == STREAM.name => {
            let function = if args.log {
                quote! { stream_logged }
            } else {
                quote! { stream }
            };
            quote! { ::hotpath::__private::#function(&__HOTPATH_SITE, #label_arg, __hotpath_value) }
        }
        name => {
            let function = Ident::new(name, Span::call_site());
            quote! { ::hotpath::__private::#function(&__HOTPATH_SITE, #label_arg, __hotpath_value) }
        }
    };
    quote! {
        let __hotpath_value = #expr;
        static __HOTPATH_SITE: ::hotpath::__private::#site_type =
            ::hotpath::__private::#site_type::new(#literal, ::core::file!(), ::core::line!(), #iter);
        #label_stmts
        #call
    }
}

/// Each instrument's site type: its entries are typed by it.
fn site_type(spec: WrapMacro) -> &'static str {
    match spec.name {
        name if name == STREAM.name => "StreamSite",
        name if name == CHANNEL.name => "ChannelSite",
        name if name == MUTEX.name => "MutexSite",
        name if name == RW_LOCK.name => "RwLockSite",
        name if name == IO.name => "IoSite",
        name => unreachable!("no site type for {name}!"),
    }
}
