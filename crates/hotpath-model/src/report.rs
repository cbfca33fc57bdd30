//! The report: metadata plus one optional section per instrument, declared once in
//! the section table below. Everything that lists sections reads [`SECTIONS`].

use std::str::FromStr;

use crate::section::{section_table, SectionData};
use crate::sections::types::*;

/// Version of the JSON report schema. Bump it on any change that is not a pure
/// addition of an optional field; `docs/JSON_SCHEMA.md` records each version.
pub const SCHEMA_VERSION: u32 = 1;

// The section table comes from the one list of sections (`hotpath-sections`): a
// section is a folder under `sections/` and one entry there.
hotpath_sections::sections!(section_table);

impl Section {
    /// Every section, in report order.
    pub fn all() -> Vec<Section> {
        SECTIONS.iter().map(|d| d.section).collect()
    }

    /// The table's entry for this section.
    pub fn def(self) -> &'static SectionDef {
        SECTIONS.iter().find(|d| d.section == self).unwrap_or(&SECTIONS[0])
    }

    /// Name in reports and in `HOTPATH_REPORT` (`functions-timing`).
    pub fn name(self) -> &'static str {
        self.def().name
    }

    /// JSON key and endpoint path segment (`functions_timing`).
    pub fn key(self) -> &'static str {
        self.def().key
    }

    /// The name in a report's header, as hotpath 0.30 prints it: `timing`, `alloc`,
    /// `cpu` and `icount` for the functions sections, the name for the others.
    pub fn short_name(self) -> &'static str {
        let name = self.name();
        name.strip_prefix("functions-").unwrap_or(name)
    }
}

impl FromStr for Section {
    type Err = String;
    /// A section's name or key, with `-` or `_` between words: `functions-timing`,
    /// `functions_timing`, and `rw-locks` as the table title prints it, all work.
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let key = s.replace('-', "_");
        SECTIONS.iter().find(|d| d.name == s || d.key == key).map(|d| d.section).ok_or_else(|| {
            let names: Vec<&str> = SECTIONS.iter().map(|d| d.name).collect();
            format!("unknown section {s:?}; expected one of {}", names.join(", "))
        })
    }
}

impl std::fmt::Display for Section {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a JSON report could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReportError {
    /// The text is not JSON, or does not have the shape of a report.
    Json(serde_json::Error),
    /// The report has no `schema_version` field.
    MissingVersion,
    /// The report was written with another schema version.
    Version {
        /// Version found in the file.
        found: u64,
        /// Version this build reads.
        expected: u32,
    },
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Json(e) => write!(f, "not a valid hotpath JSON report: {e}"),
            Self::MissingVersion => f.write_str("not a hotpath JSON report: no schema_version field"),
            Self::Version { found, expected } => {
                write!(f, "report has schema_version {found}, this hotpath reads version {expected}")
            }
        }
    }
}

impl std::error::Error for ReportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Json(e) => Some(e),
            _ => None,
        }
    }
}

impl Report {
    /// Parses a JSON report, checking the schema version before the shape so that
    /// a report from another version gets a precise error.
    pub fn from_json(text: &str) -> Result<Self, ReportError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(ReportError::Json)?;
        let found =
            value.get("schema_version").and_then(serde_json::Value::as_u64).ok_or(ReportError::MissingVersion)?;
        if found != u64::from(SCHEMA_VERSION) {
            return Err(ReportError::Version { found, expected: SCHEMA_VERSION });
        }
        serde_json::from_value(value).map_err(ReportError::Json)
    }

    /// Serializes the report; `pretty` selects indented output.
    pub fn to_json(&self, pretty: bool) -> String {
        let out = if pretty { serde_json::to_string_pretty(self) } else { serde_json::to_string(self) };
        // The model holds only strings, integers and finite floats, which always serialize.
        out.unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// True when no section holds anything to show.
    pub fn is_empty(&self) -> bool {
        self.sections().all(|(_, s)| s.is_empty())
    }

    /// The sections the report has, in report order.
    pub fn sections(&self) -> impl Iterator<Item = (&'static SectionDef, &dyn SectionData)> + '_ {
        SECTIONS.iter().filter_map(|d| self.section(d.section).map(|s| (d, s)))
    }
}

impl Report {
    /// Every row of `section`, in report order, with its figures, when the report has
    /// the section and its row type lists them ([`RowMetrics`](crate::RowMetrics), through
    /// [`SectionData::visit_row_figures`](crate::SectionData::visit_row_figures)); `None` for
    /// sections whose rows do not (none today; a new section may not), which a reader
    /// takes from the JSON.
    pub fn row_metrics(&self, section: Section) -> Option<Vec<crate::NamedMetrics>> {
        let mut rows = Vec::new();
        let typed =
            self.section(section)?.visit_row_figures(&mut |name, metrics| rows.push((name.to_string(), metrics)));
        typed.then_some(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every number a section holds beside its rows is listed by its type with a unit
    /// (`SectionData::visit_totals`), the process id excepted, which identifies.
    #[test]
    fn every_section_lists_its_own_figures() {
        for def in SECTIONS {
            let mut report = Report::default();
            report.ensure(def.section);
            let mut listed = Vec::new();
            let typed =
                report.section(def.section).unwrap().visit_totals(&mut |key, _, _| listed.push(key.to_string()));
            assert!(typed, "{}", def.key);
            let json = report.section_json(def.section).unwrap();
            for (key, value) in json.as_object().unwrap() {
                if value.is_number() && key != "pid" {
                    assert!(listed.contains(key), "{}.{key} has no unit of its type", def.key);
                }
            }
        }
    }

    #[test]
    fn rejects_other_schema_versions_by_number() {
        let err = Report::from_json(r#"{"schema_version": 99, "meta": {}}"#).unwrap_err();
        assert!(matches!(err, ReportError::Version { found: 99, expected: SCHEMA_VERSION }));
        assert!(err.to_string().contains("schema_version 99"));
    }

    #[test]
    fn rejects_non_reports() {
        assert!(matches!(Report::from_json("[1,2]"), Err(ReportError::MissingVersion)));
        assert!(matches!(Report::from_json("{"), Err(ReportError::Json(_))));
    }

    #[test]
    fn round_trips() {
        let mut report = Report { schema_version: SCHEMA_VERSION, ..Report::default() };
        report.meta.caller = "demo::main".into();
        let back = Report::from_json(&report.to_json(true)).unwrap();
        assert_eq!(back, report);
    }

    /// Every section's group is a limit group, and every limit group limits a section.
    #[test]
    fn limit_groups_match_the_sections() {
        for def in SECTIONS {
            if let Some(group) = def.limit_group {
                assert!(LIMIT_GROUPS.iter().any(|g| g.name == group), "{} names group {group}", def.name);
            }
        }
        for group in LIMIT_GROUPS {
            assert!(SECTIONS.iter().any(|d| d.limit_group == Some(group.name)), "group {} limits nothing", group.name);
            assert_eq!(group.method, format!("{}_limit", group.name));
        }
    }
}
