//! The types `hotpath::wrap::reqwest_012` and `reqwest_013` name with the `hotpath`
//! feature: reqwest-middleware's client, error and request builder over each reqwest.

/// reqwest 0.12 through reqwest-middleware 0.4.
#[cfg(feature = "reqwest-0-12")]
pub mod reqwest_012 {
    pub use reqwest012::Response;
    pub use reqwest_middleware04::{ClientWithMiddleware as Client, Error, RequestBuilder};
}

/// reqwest 0.13 through reqwest-middleware 0.5.
#[cfg(feature = "reqwest-0-13")]
pub mod reqwest_013 {
    pub use reqwest013::Response;
    pub use reqwest_middleware05::{ClientWithMiddleware as Client, Error, RequestBuilder};
}
