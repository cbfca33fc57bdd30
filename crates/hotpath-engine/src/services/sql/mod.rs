//! SQL queries: one row per normalized statement, library, route and function,
//! recorded from sqlx's `sqlx::query` tracing events and diesel's instrumentation.

mod cache;
#[cfg(feature = "diesel")]
pub(crate) mod diesel;
mod normalize;
pub(crate) mod record;
pub(crate) mod section;
#[cfg(feature = "sqlx")]
pub(crate) mod sqlx;
