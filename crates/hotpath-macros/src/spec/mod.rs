//! Which parameters each macro accepts, checked identically in both modes: the same
//! hand-written parser (no `syn`) runs with the `hotpath` feature on and off, so a bad
//! parameter is the same compile error either way, reported with every other one.

/// Stores a checked parameter for the expansion. Without `hotpath` nothing reads it and
/// the field does not exist, so the value is only checked: the same errors either way.
macro_rules! keep {
    ($field:expr, $value:expr) => {{
        let value = $value;
        #[cfg(feature = "hotpath")]
        {
            $field = value;
        }
        #[cfg(not(feature = "hotpath"))]
        let _ = value;
    }};
}
pub(crate) use keep;

mod block;
mod common;
mod item;
mod main_args;
mod measure;
mod tokio;

pub(crate) use block::{block_args, Label};
pub(crate) use common::{boolean, quoted, unknown};
pub(crate) use item::{measured_container, measured_item};
pub(crate) use main_args::main_args;
#[cfg(feature = "hotpath")]
pub(crate) use main_args::MainArgs;
pub(crate) use measure::{future_fn_args, measure_all_args, measure_args, MeasureArgs};
pub(crate) use tokio::tokio_runtime_args;
#[cfg(feature = "hotpath")]
pub(crate) use tokio::TokioRuntimeArgs;
