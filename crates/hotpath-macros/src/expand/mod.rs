//! Instrumenting expansions, compiled only with the `hotpath` feature.
//!
//! Each expansion adds one `static` call site and one call into `::hotpath::__private`;
//! everything else stays as the user wrote it. With `hotpath-callgrind`, measured
//! bodies also run inside a marker function (`icount`), one more nested item.

mod block;
mod function;
#[cfg(feature = "hotpath-callgrind")]
mod icount;
mod main_fn;
mod marked;
mod site;
mod tokio_runtime;
mod wrap;

pub(crate) use block::block;
pub(crate) use function::{measure, measure_all};
pub(crate) use main_fn::main;
pub(crate) use tokio_runtime::tokio_runtime;
pub(crate) use wrap::wrap;
