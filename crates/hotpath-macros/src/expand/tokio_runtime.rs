//! `tokio_runtime!([handle] [, label = "..."])`: hands the call site and the handle to
//! the facade's `__tokio_runtime!`, which owns the `static` and knows whether the
//! `tokio` feature is on.

use proc_macro2::TokenStream;
use quote::quote;

use crate::spec::TokioRuntimeArgs;

pub(crate) fn tokio_runtime(args: TokioRuntimeArgs) -> TokenStream {
    let label = match args.label {
        Some(label) => quote! { ::core::option::Option::Some(#label) },
        None => quote! { ::core::option::Option::None },
    };
    match args.handle {
        Some(handle) => {
            let handle: TokenStream = handle.into();
            quote! { ::hotpath::__tokio_runtime!(#label, #handle) }
        }
        None => quote! { ::hotpath::__tokio_runtime!(#label) },
    }
}
