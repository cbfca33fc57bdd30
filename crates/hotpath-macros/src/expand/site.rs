//! Tokens every function-like expansion shares: the static call site and its name,
//! labels computed at run time, and the `log = true` hook.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

/// How the site of a measured function or block is named.
pub(crate) enum Name<'a> {
    /// `label = "x"` or a literal `measure_block!` label.
    Label(&'a str),
    /// `impl_type = "T"`: `module::T::function`.
    Typed { ty: &'a str, function: String },
    /// The function's own path, read from the type name of a nested item.
    Path,
}

/// What the site reports as.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The functions sections (async ones are in the futures section too).
    Function { is_async: bool },
    /// The futures section only (`#[future_fn]`, `future!`).
    Future,
}

/// `static __HOTPATH_SITE: FnSite = ...;`, registered once on first use.
pub(crate) fn site_static(name: &Name<'_>, kind: Kind, span: Span) -> TokenStream {
    site_static_with(name, kind, span, TokenStream::new())
}

/// The same, with `suffix` appended to the constructor (`.icount(tag)`, `marked.rs`).
pub(crate) fn site_static_with(name: &Name<'_>, kind: Kind, span: Span, suffix: TokenStream) -> TokenStream {
    let name = match name {
        Name::Label(label) => quote! { ::hotpath::__private::SiteName::Label(#label) },
        Name::Typed { ty, function } => quote! {
            ::hotpath::__private::SiteName::Label(::core::concat!(::core::module_path!(), "::", #ty, "::", #function))
        },
        Name::Path => quote_spanned! {span=>
            ::hotpath::__private::SiteName::Path({
                fn __hotpath_fn_name() {}
                || ::core::any::type_name_of_val(&__hotpath_fn_name)
            })
        },
    };
    let constructor = match kind {
        Kind::Function { is_async } => {
            quote! { ::hotpath::__private::FnSite::new(#name, ::core::file!(), ::core::line!(), #is_async) }
        }
        Kind::Future => quote! { ::hotpath::__private::FnSite::future(#name, ::core::file!(), ::core::line!()) },
    };
    quote_spanned! {span=>
        static __HOTPATH_SITE: ::hotpath::__private::FnSite = #constructor #suffix;
    }
}

/// `static __HOTPATH_SITES: DynSites = ...;`: one site per label text, for labels that
/// are computed at run time.
pub(crate) fn dyn_sites_static(kind: Kind) -> TokenStream {
    let constructor = match kind {
        Kind::Function { is_async } => {
            quote! { ::hotpath::__private::DynSites::new(::core::file!(), ::core::line!(), #is_async) }
        }
        Kind::Future => quote! { ::hotpath::__private::DynSites::future(::core::file!(), ::core::line!()) },
    };
    quote! { static __HOTPATH_SITES: ::hotpath::__private::DynSites = #constructor; }
}

/// `let __hotpath_label: Cow<str> = ...;`: a label expression evaluated once, by
/// reference (a `String` variable is not moved), as text: `&str`, `String` and the
/// like are borrowed, anything else `Display` is formatted.
pub(crate) fn runtime_label(expr: &TokenStream) -> TokenStream {
    quote! {
        #[allow(unused_imports)]
        use ::hotpath::__private::{LabelDisplay as _, LabelStr as _};
        // Bound first: a temporary such as `format!(..)` then lives to the end of the block.
        let __hotpath_label_value = ::hotpath::__private::Label(&(#expr));
        let __hotpath_label = (&__hotpath_label_value).hotpath_label();
    }
}

/// Keeps the `Debug` text of `value` in the site's log (`log = true`). `if_debug`: only
/// when its type implements `Debug` (`measure_all(log = true)`, where a method's return
/// type may not); otherwise a missing `Debug` is a compile error at `span`.
pub(crate) fn log_value(site: TokenStream, value: TokenStream, if_debug: bool, span: Span) -> TokenStream {
    if if_debug {
        quote! {
            {
                #[allow(unused_imports)]
                use ::hotpath::__private::{LogDebug as _, LogOther as _};
                (&::hotpath::__private::MaybeDebug(&#value)).hotpath_log(#site);
            }
        }
    } else {
        quote_spanned! {span=> ::hotpath::__private::log_value(#site, &#value); }
    }
}
