//! The wrapping macros: a `static` site, then one call into `::hotpath::__private`
//! that wraps the user's expression.

use proc_macro2::TokenStream;
use quote::quote;

use crate::wrap_spec::{WrapArgs, WrapMacro, CHANNEL, FUTURE, MUTEX, RW_LOCK, STREAM};

pub(crate) fn wrap(spec: WrapMacro, args: WrapArgs) -> TokenStream {
    let expr: TokenStream = args.expr.into();
    if spec.name == FUTURE.name {
        let name = match &args.label {
            Some(label) => quote! { #label },
            None => quote! { ::core::concat!(::core::file!(), ":", ::core::line!()) },
        };
        return quote! {
            {
                static __HOTPATH_SITE: ::hotpath::__private::FnSite = ::hotpath::__private::FnSite::future(
                    ::hotpath::__private::SiteName::Label(#name),
                    ::core::file!(),
                    ::core::line!(),
                );
                ::hotpath::__private::MeasuredFuture::new(
                    &__HOTPATH_SITE,
                    ::core::future::IntoFuture::into_future(#expr),
                )
            }
        };
    }
    let label = match &args.label {
        Some(label) => quote! { ::core::option::Option::Some(#label) },
        None => quote! { ::core::option::Option::None },
    };
    let iter = args.iter;
    let function = proc_macro2::Ident::new(spec.name, proc_macro2::Span::call_site());
    let site = proc_macro2::Ident::new(site_type(spec), proc_macro2::Span::call_site());
    quote! {
        {
            static __HOTPATH_SITE: ::hotpath::__private::#site =
                ::hotpath::__private::#site::new(#label, ::core::file!(), ::core::line!(), #iter);
            ::hotpath::__private::#function(&__HOTPATH_SITE, #expr)
        }
    }
}

/// Each instrument's site type: its entries are typed by it.
fn site_type(spec: WrapMacro) -> &'static str {
    match spec.name {
        name if name == STREAM.name => "StreamSite",
        name if name == CHANNEL.name => "ChannelSite",
        name if name == MUTEX.name => "MutexSite",
        name if name == RW_LOCK.name => "RwLockSite",
        name => unreachable!("no site type for {name}!"),
    }
}
