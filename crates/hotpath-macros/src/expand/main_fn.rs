//! `#[hotpath::main]`: a guard at the top of the body starts profiling and reports on drop.

use proc_macro2::TokenStream;
use quote::quote;

use crate::spec::MainArgs;

pub(crate) fn main(args: MainArgs, item: TokenStream) -> TokenStream {
    let mut function: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(e) => {
            let mut out = item;
            out.extend(syn::Error::new(e.span(), "#[hotpath::main] applies to a function").to_compile_error());
            return out;
        }
    };
    let name = function.sig.ident.to_string();
    let mut config = quote! {
        ::hotpath::__private::MainConfig::new(::core::concat!(::core::module_path!(), "::", #name))
    };
    if let Some(list) = &args.percentiles {
        config.extend(quote! { .percentiles(&[#(#list),*]) });
    }
    if let Some(format) = &args.format {
        config.extend(quote! { .format(#format) });
    }
    if let Some(limit) = args.limit {
        let limit = limit as usize;
        config.extend(quote! { .limit(#limit) });
    }
    if let Some(path) = &args.output_path {
        config.extend(quote! { .output_path(#path) });
    }
    if let Some(dir) = &args.cpu_output {
        config.extend(quote! { .cpu_output(#dir) });
    }
    if let Some(on) = args.timeline {
        config.extend(quote! { .timeline(#on) });
    }
    if let Some(path) = &args.timeline_output {
        config.extend(quote! { .timeline_output(#path) });
    }
    if let Some(budget) = args.overhead_budget {
        config.extend(quote! { .overhead_budget(#budget) });
    }
    config.extend(report_and_limits(&args));
    let guard: syn::Stmt = syn::parse_quote! {
        let __hotpath_main_guard = ::hotpath::__private::MainGuard::start_from(|| #config);
    };
    function.block.stmts.insert(0, guard);
    let allocator = allocator(args.allocator.map(Into::into));
    let notes: TokenStream = crate::note::item(&args.notes).into();
    quote! { #notes #allocator #function }
}

/// `.report("..")` and `.functions_limit(N)`, ...: `MainConfig` methods named as the
/// parameters, emitted after `.limit(N)` so a section's own limit wins.
fn report_and_limits(args: &MainArgs) -> TokenStream {
    let mut calls = TokenStream::new();
    if let Some(spec) = &args.report {
        calls.extend(quote! { .report(#spec) });
    }
    for (name, value) in &args.section_limits {
        let method = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
        let value = *value as usize;
        calls.extend(quote! { .#method(#value) });
    }
    calls
}

/// With `hotpath-alloc`, the counting global allocator around `System` or the
/// user's allocator, as a sibling item of the annotated function.
#[cfg(feature = "hotpath-alloc")]
fn allocator(user: Option<TokenStream>) -> TokenStream {
    let inner = user.unwrap_or_else(|| quote! { ::std::alloc::System });
    quote! {
        #[global_allocator]
        static __HOTPATH_GLOBAL_ALLOCATOR: ::hotpath::__private::CountingAllocator<#inner> =
            ::hotpath::__private::CountingAllocator::new(#inner);
    }
}

#[cfg(not(feature = "hotpath-alloc"))]
fn allocator(_user: Option<TokenStream>) -> TokenStream {
    TokenStream::new()
}
