//! One folder per section, named as its `Report` field: data types (`mod.rs`), printed
//! table (`table.rs`), metric families and row access (`metrics.rs`), figures with
//! their units (`row_metrics.rs`). The modules and the re-export of each section's
//! type come from the one list of sections (`hotpath-sections`), so a new section is
//! its folder and its entry there; its other types are reached through its module
//! (`hotpath_model::sections::<field>::...`).

/// Declares each section's module and re-exports its type (`types`).
macro_rules! section_modules {
    (
        sections {$(
            $(#[$doc:meta])*
            $variant:ident => $field:ident: $ty:ident, $name:literal, $title:literal, $tab:ident,
                limit: $limit:expr, compared: $compared:literal, about: $about:literal, absent: $absent:literal;
        )*}
        limits { $($limits:tt)* }
    ) => {
        $(
            #[doc = concat!("The `", $name, "` section (`", stringify!($ty), "`).")]
            pub mod $field;
        )*

        /// Every section's type, re-exported at the crate's root.
        pub(crate) mod types {
            pub use crate::sections::{$( $field::$ty, )*};
        }
    };
}

hotpath_sections::sections!(section_modules);
