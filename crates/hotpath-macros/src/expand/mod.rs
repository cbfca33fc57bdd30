//! Instrumenting expansions, compiled only with the `hotpath` feature.
//!
//! Each expansion adds one `static` call site and one call into `::hotpath::__private`;
//! everything else stays as the user wrote it.

mod block;
mod function;
mod main_fn;
mod site;
mod tokio_runtime;
mod wrap;

pub(crate) use block::block;
pub(crate) use function::{measure, measure_all};
pub(crate) use main_fn::main;
pub(crate) use tokio_runtime::tokio_runtime;
pub(crate) use wrap::wrap;
