//! `Format` and `Section` with the `hotpath` feature off: the same names and variants
//! as with it on (a test compares them), so code naming them compiles in both modes.

use std::str::FromStr;

/// How the final report is written.
// Exhaustive, as in hotpath-rs 0.30.3: a user's `match` on it must compile here too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// Human-readable tables (the default).
    #[default]
    Table,
    /// One line of JSON.
    Json,
    /// Indented JSON.
    JsonPretty,
    /// Nothing is printed.
    None,
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "table" => Ok(Self::Table),
            "json" => Ok(Self::Json),
            "json-pretty" | "jsonpretty" => Ok(Self::JsonPretty),
            "none" => Ok(Self::None),
            _ => Err(format!("unknown format {s:?}; expected table, json, json-pretty or none")),
        }
    }
}

/// `Section` from the section list (`hotpath-sections`): the model's variants, names and docs.
macro_rules! off_sections {
    (sections {$(
        $(#[$doc:meta])*
        $variant:ident => $field:ident: $ty:ty, $name:literal, $title:literal, $tab:ident,
            limit: $limit:expr, compared: $compared:literal, about: $about:literal, absent: $absent:literal;
    )*} limits { $($limits:tt)* }) => {
        /// One section of the report.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Section {
            $( $(#[$doc])* $variant, )*
        }

        impl Section {
            /// Every section, in report order.
            pub fn all() -> Vec<Section> {
                vec![$(Section::$variant),*]
            }

            /// Name in reports and in `HOTPATH_REPORT`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Section::$variant => $name,)*
                }
            }

            /// The name in a report's header: `timing`, `alloc`, `cpu`, `icount` for
            /// the functions sections, the name for the others.
            pub fn short_name(self) -> &'static str {
                let name = self.name();
                name.strip_prefix("functions-").unwrap_or(name)
            }
        }
    };
}

hotpath_sections::sections!(off_sections);

impl FromStr for Section {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        Section::all()
            .into_iter()
            .find(|x| x.name() == s || x.name().replace('-', "_") == s)
            .ok_or_else(|| format!("unknown section {s:?}"))
    }
}
