//! The newest enabled Criterion version: every wrapper forwards to it.

#[cfg(all(
    feature = "criterion-0-5",
    not(any(feature = "criterion-0-6", feature = "criterion-0-7", feature = "criterion-0-8"))
))]
pub use criterion_0_5::*;
#[cfg(all(feature = "criterion-0-6", not(any(feature = "criterion-0-7", feature = "criterion-0-8"))))]
pub use criterion_0_6::*;
#[cfg(all(feature = "criterion-0-7", not(feature = "criterion-0-8")))]
pub use criterion_0_7::*;
#[cfg(feature = "criterion-0-8")]
pub use criterion_0_8::*;
