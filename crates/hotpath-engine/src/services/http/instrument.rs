//! The public face of the HTTP client instruments: the middleware types and the trait
//! `http!(client)` calls. The library impls live beside each adapter.

/// Times the calls of a reqwest client: `ClientBuilder::new(client).with(ReqwestHttpMiddleware::new())`
/// (reqwest-middleware 0.4 for reqwest 0.12, 0.5 for 0.13), or `hotpath::http!(client)`.
#[derive(Clone, Debug, Default)]
pub struct ReqwestHttpMiddleware {
    #[cfg(any(feature = "reqwest-0-12", feature = "reqwest-0-13"))]
    pub(crate) label: Option<String>,
}

impl ReqwestHttpMiddleware {
    /// Rows named by endpoint alone.
    pub fn new() -> Self {
        Self::default()
    }

    /// Rows named `label: METHOD host/path`.
    pub fn with_label(label: impl Into<String>) -> Self {
        // Without its library the type is never used as a middleware: the label is dropped.
        #[cfg(not(any(feature = "reqwest-0-12", feature = "reqwest-0-13")))]
        let _ = label;
        Self {
            #[cfg(any(feature = "reqwest-0-12", feature = "reqwest-0-13"))]
            label: Some(label.into()),
        }
    }
}

/// Times the calls of a ureq 3 agent:
/// `Agent::config_builder().middleware(UreqHttpMiddleware::new())`, or
/// `hotpath::http!(ureq::Agent::config_builder())`.
#[derive(Clone, Debug, Default)]
pub struct UreqHttpMiddleware {
    #[cfg(feature = "ureq")]
    pub(crate) label: Option<String>,
}

impl UreqHttpMiddleware {
    /// Rows named by endpoint alone.
    pub fn new() -> Self {
        Self::default()
    }

    /// Rows named `label: METHOD host/path`.
    pub fn with_label(label: impl Into<String>) -> Self {
        // Without its library the type is never used as a middleware: the label is dropped.
        #[cfg(not(feature = "ureq"))]
        let _ = label;
        Self {
            #[cfg(feature = "ureq")]
            label: Some(label.into()),
        }
    }
}

/// What `hotpath::http!` does to a client: reqwest's `Client` becomes a
/// reqwest-middleware `ClientWithMiddleware` with [`ReqwestHttpMiddleware`]; ureq's
/// agent `ConfigBuilder` gets [`UreqHttpMiddleware`] appended.
pub trait InstrumentHttpClient {
    /// The instrumented client.
    type Output;
    /// Instruments the client; `label` prefixes its rows.
    fn instrument_http(self, label: Option<String>) -> Self::Output;
}
