//! What every section provides to the sinks, and the macro that turns the one section
//! table (in `report.rs`) into the `Section` enum, the `Report` fields, the
//! `SectionDef` list and the accessors. Every sink iterates that list: the printer,
//! the live endpoints, `/metrics`, MCP, the console's tabs and `compare`.

use crate::export::Families;
use crate::meta::Meta;

/// Where the console shows a section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tab {
    /// Function timing, allocations, CPU samples, instruction counts.
    Functions,
    /// Futures, streams, channels, mutexes and RwLocks.
    DataFlow,
    /// Byte-level I/O.
    Io,
    /// Per-thread CPU and memory.
    Threads,
    /// Tokio runtimes.
    Tokio,
    /// Server routes, outgoing HTTP calls and SQL queries.
    Services,
    /// `dbg!`, `val!` and `gauge!` trackers.
    Debug,
}

impl Tab {
    /// Every tab, in the console's order.
    pub const ALL: [Tab; 7] =
        [Tab::Functions, Tab::DataFlow, Tab::Io, Tab::Threads, Tab::Tokio, Tab::Services, Tab::Debug];

    /// The tab's title.
    pub fn title(self) -> &'static str {
        match self {
            Self::Functions => "Functions",
            Self::DataFlow => "Data flow",
            Self::Io => "I/O",
            Self::Threads => "Threads",
            Self::Tokio => "Tokio",
            Self::Services => "Services",
            Self::Debug => "Debug",
        }
    }
}

/// What every section type provides.
pub trait SectionData {
    /// True when it has nothing to show.
    fn is_empty(&self) -> bool {
        self.row_names().is_empty()
    }
    /// The printed table, title line included.
    fn render(&self, meta: &Meta) -> String;
    /// Its Prometheus families.
    fn metrics(&self, out: &mut Families);
    /// The names of its rows, in order: what focus, limits and filters select by.
    fn row_names(&self) -> Vec<&str>;
    /// Keeps the rows at `keep` (indices into [`row_names`](Self::row_names)), in that order.
    fn keep_rows(&mut self, keep: &[usize]);
    /// Calls `each` with every row's name and figures, with the units its type
    /// declares, one row at a time, for readers that need no code of their own per
    /// section (`hotpath compare`, the console's tables, MCP). True when the rows
    /// implement [`RowMetrics`](crate::RowMetrics) (through [`visit_rows`]); false when
    /// they do not, and readers fall back to the section's JSON.
    fn visit_row_figures(&self, each: &mut dyn FnMut(&str, Vec<crate::RowMetric>)) -> bool {
        let _ = each;
        false
    }
    /// Calls `each` with every numeric figure of the section itself (beside its rows:
    /// `total_functions`, `rss_bytes`, `total_ns`), by JSON key, with its unit; numbers
    /// not listed identify rather than measure (`pid`). False when the type lists none,
    /// and readers fall back to classifying the JSON's field names.
    fn visit_totals(&self, each: &mut dyn FnMut(&str, crate::Unit, f64)) -> bool {
        let _ = each;
        false
    }
}

/// Visits every row of `rows`, for [`SectionData::visit_row_figures`].
pub fn visit_rows<R: crate::RowMetrics>(rows: &[R], each: &mut dyn FnMut(&str, Vec<crate::RowMetric>)) -> bool {
    for row in rows {
        each(row.row_name(), row.row_metrics());
    }
    true
}

/// Keeps `rows[i]` for every `i` in `keep`, in that order (indices out of range are skipped).
pub fn keep_rows<T>(rows: &mut Vec<T>, keep: &[usize]) {
    let mut slots: Vec<Option<T>> = rows.drain(..).map(Some).collect();
    rows.extend(keep.iter().filter_map(|&i| slots.get_mut(i).and_then(Option::take)));
}

/// One group of sections that share a row limit: `<group>_limit` parameter and
/// builder method, `HOTPATH_<GROUP>_LIMIT` variable.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct LimitGroup {
    /// As the variables and `group_limit` name it (`functions`).
    pub name: &'static str,
    /// The parameter and method (`functions_limit`).
    pub method: &'static str,
    /// Rows shown when nothing is set; 0 shows all.
    pub default: usize,
    /// What it limits, for docs and messages (`Rows of the function sections`).
    pub what: &'static str,
}

/// Expands the section table: the list of `hotpath-sections`, expanded in `report.rs`.
macro_rules! section_table {
    (
        sections {$(
            $(#[$doc:meta])*
            $variant:ident => $field:ident: $ty:ident, $name:literal, $title:literal, $tab:ident,
                limit: $limit:expr, compared: $compared:literal, about: $about:literal, absent: $absent:literal;
        )*}
        limits {$(
            $method:ident: $group:literal, $default:literal, $what:literal;
        )*}
    ) => {
        /// One section of the report, as `HotpathGuardBuilder::sections` and
        /// `HOTPATH_REPORT` name them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Section {
            $( $(#[$doc])* $variant, )*
        }

/// The table's facts about one section.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct SectionDef {
    /// The section.
    pub section: Section,
    /// JSON key and endpoint path (`/functions_timing`).
    pub key: &'static str,
    /// Name in reports and in `HOTPATH_REPORT` (`functions-timing`).
    pub name: &'static str,
    /// Short title for tabs and headings (`Timing`).
    pub title: &'static str,
    /// What it shows, in one line.
    pub about: &'static str,
    /// Why a live snapshot may not have it.
    pub absent: &'static str,
    /// The console tab that shows it.
    pub tab: $crate::section::Tab,
    /// Whether `hotpath compare` compares it (per-run samples like threads are not).
    pub compared: bool,
    /// Its row-limit group (a name of [`LIMIT_GROUPS`]); `None`: never cut.
    pub limit_group: Option<&'static str>,
}


        /// Every row-limit group, in the order of the sections they limit.
        pub const LIMIT_GROUPS: &[$crate::section::LimitGroup] = &[$(
            $crate::section::LimitGroup { name: $group, method: stringify!($method), default: $default, what: $what },
        )*];

        /// Every section, in report order.
        pub const SECTIONS: &[SectionDef] = &[$(
            SectionDef {
                section: Section::$variant,
                key: stringify!($field),
                name: $name,
                title: $title,
                about: $about,
                absent: $absent,
                tab: $crate::section::Tab::$tab,
                compared: $compared,
                limit_group: $limit,
            },
        )*];

        /// A complete profiling snapshot, as printed at exit or served live.
        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[non_exhaustive]
        pub struct Report {
            /// Always [`SCHEMA_VERSION`] for reports written by this build.
            pub schema_version: u32,
            /// What was profiled, when, and how.
            pub meta: $crate::meta::Meta,
            /// Free-form pairs from the program (`user_metadata`, `HOTPATH_USER_METADATA`).
            #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
            pub user_metadata: std::collections::BTreeMap<String, String>,
            $(
                $(#[$doc])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
        }

        /// One collector per section, implemented by the engine: a method per entry of
        /// the table and no default, so a section without a collector does not compile.
        pub trait Collectors {
            $(
                /// This section, collected (`None` when its feature is off or it has nothing).
                fn $field(&self) -> Option<$ty>;
            )*
        }

        impl Report {
            /// Fills `section` from its collector (an exhaustive match, in this crate).
            pub fn collect_from(&mut self, section: Section, collectors: &impl Collectors) {
                match section {
                    $( Section::$variant => self.$field = collectors.$field(), )*
                }
            }

            /// A section, if the report has it.
            pub fn section(&self, section: Section) -> Option<&dyn SectionData> {
                match section {
                    $( Section::$variant => self.$field.as_ref().map(|s| s as &dyn SectionData), )*
                }
            }

            /// A section, mutable, if the report has it.
            pub fn section_mut(&mut self, section: Section) -> Option<&mut dyn SectionData> {
                match section {
                    $( Section::$variant => self.$field.as_mut().map(|s| s as &mut dyn SectionData), )*
                }
            }

            /// Removes a section.
            pub fn remove(&mut self, section: Section) {
                match section {
                    $( Section::$variant => self.$field = None, )*
                }
            }

            /// Adds an empty section unless the report has it (a section asked for by name).
            pub fn ensure(&mut self, section: Section) {
                match section {
                    $( Section::$variant => if self.$field.is_none() { self.$field = Some(Default::default()) }, )*
                }
            }

            /// A section as JSON, if the report has it.
            pub fn section_json(&self, section: Section) -> Option<serde_json::Value> {
                match section {
                    $( Section::$variant => self.$field.as_ref().and_then(|s| serde_json::to_value(s).ok()), )*
                }
            }

            /// Sets `section` from its JSON (a live endpoint's body, one key of a report);
            /// an error when the JSON is not that section's type, and the report is unchanged.
            pub fn set_section_json(&mut self, section: Section, json: &serde_json::Value) -> Result<(), serde_json::Error> {
                match section {
                    $( Section::$variant => self.$field = Some(<$ty as serde::Deserialize>::deserialize(json)?), )*
                }
                Ok(())
            }
        }
    };
}

pub(crate) use section_table;
