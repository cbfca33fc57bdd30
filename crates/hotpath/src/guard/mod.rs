//! The programmatic session: `HotpathGuardBuilder` for tests, libraries, servers and
//! parts of a run, with the names and methods of hotpath-rs 0.30, in both modes. With
//! the `hotpath` feature off every method is a no-op and no dependency is added.

mod builder;
#[cfg(not(feature = "hotpath"))]
mod off_types;

pub use builder::{HotpathGuard, HotpathGuardBuilder};
#[cfg(feature = "hotpath")]
pub use hotpath_engine::model::Section;
#[cfg(feature = "hotpath")]
pub use hotpath_session::Format;
#[cfg(not(feature = "hotpath"))]
pub use off_types::{Format, Section};
