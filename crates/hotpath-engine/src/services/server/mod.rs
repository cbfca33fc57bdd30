//! Server requests: one row per method and matched route, through the axum layer
//! (`axum`, feature `axum`) and the section built from them (`section`).

#[cfg(feature = "axum")]
pub(crate) mod axum;
pub(crate) mod section;
pub(crate) mod serving;

pub(crate) use serving::Serving;
