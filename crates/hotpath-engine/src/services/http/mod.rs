//! Outgoing HTTP calls: one row per normalized endpoint, label, route and function,
//! recorded by the client adapters (reqwest through reqwest-middleware, ureq) and
//! summarized by `section`.

#[cfg(feature = "services-http")]
pub(crate) mod call;
pub(crate) mod instrument;
#[cfg(any(feature = "reqwest-0-12", feature = "reqwest-0-13"))]
mod reqwest;
#[cfg(feature = "services-http")]
pub(crate) mod section;
#[cfg(feature = "ureq")]
mod ureq;
