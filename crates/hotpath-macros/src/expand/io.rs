//! `io!(value, label = "...", iter = true)`: one static call site and a wrapper.

use proc_macro2::TokenStream;
use quote::quote;

use crate::spec::IoArgs;

pub(crate) fn io(args: &IoArgs, expr: TokenStream) -> TokenStream {
    let label = match &args.label {
        Some(label) => quote! { ::core::option::Option::Some(#label) },
        None => quote! { ::core::option::Option::None },
    };
    let iter = args.iter;
    // The value is evaluated before the site is touched, so `?` and `.await` in it
    // behave as without the macro.
    quote! {
        {
            let __hotpath_io_value = #expr;
            static __HOTPATH_IO_SITE: ::hotpath::__private::IoSite =
                ::hotpath::__private::IoSite::new(#label, ::core::file!(), ::core::line!(), #iter);
            ::hotpath::__private::Io::new(&__HOTPATH_IO_SITE, __hotpath_io_value)
        }
    }
}
