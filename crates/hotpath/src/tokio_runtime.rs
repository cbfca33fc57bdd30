//! The second half of `tokio_runtime!`: the proc macro validates its arguments in
//! every mode and, with the `hotpath` feature, expands to `__tokio_runtime!`, defined
//! here because only this crate knows whether its `tokio` feature is on.

/// Registers a `tokio_runtime!()` call site. Not a public API.
#[cfg(all(feature = "hotpath", feature = "tokio"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __tokio_runtime {
    ($label:expr $(, $handle:expr)?) => {{
        static __HOTPATH_TOKIO_SITE: $crate::__private::TokioSite =
            $crate::__private::TokioSite::new(::core::file!(), ::core::line!(), $label);
        $crate::__tokio_runtime!(@monitor &__HOTPATH_TOKIO_SITE $(, $handle)?)
    }};
    (@monitor $site:expr) => {
        $crate::__private::monitor_tokio_current($site)
    };
    (@monitor $site:expr, $handle:expr) => {
        $crate::__private::monitor_tokio($site, $handle)
    };
}

/// Without the `tokio` feature there is no sampler to register with: say how to get one.
#[cfg(all(feature = "hotpath", not(feature = "tokio")))]
#[doc(hidden)]
#[macro_export]
macro_rules! __tokio_runtime {
    ($($anything:tt)*) => {
        ::core::compile_error!(
            "hotpath::tokio_runtime! needs hotpath's `tokio` feature with `hotpath`: add \"hotpath/tokio\" next to \"hotpath/hotpath\" in your features"
        )
    };
}
