//! Every section whose rows the model types with `hotpath_model::RowMetrics`, as a
//! table read through those types (today: the Data flow, Services and Debug tabs' and
//! the function sections without a view of their own; a new section with typed rows
//! needs nothing here). Every figure and its unit come from the row's `row_metrics`,
//! its name from `row_name`; the JSON gives only the column order (the report's field
//! order) and the text columns (`kind`, `route`), so no unit is guessed from a field
//! name. A number the type does not list
//! identifies (`id`, `column`) and is shown as it is. A section its type cannot read
//! (a report of another build) is left to the generic table.

use std::collections::BTreeMap;

use hotpath_model::{NamedMetrics, Report, Section, Unit};
use serde_json::Value;

use super::fields::{flatten, row_keys};
use super::generic::{assemble, shown, Source};
use super::history::History;
use super::labels::title_of;
use super::table::{Column, Kind, Table};

/// The table of section `of` read as its model type, whatever the section: its rows'
/// figures from `SectionData::visit_row_figures`. `None` for a section whose rows do not list
/// their figures, or whose JSON the type cannot read.
pub(crate) fn table(of: Section, section: &Value, history: &History) -> Option<Table> {
    let mut report = Report::default();
    report.set_section_json(of, section).ok()?;
    figures_table(of, section, history, report.row_metrics(of)?)
}

/// The table of the `rows` list of `section`, read as `S` whose rows `list` gives (a
/// row type of the tests' own).
#[cfg(test)]
pub(crate) fn rows<S: serde::de::DeserializeOwned, R: hotpath_model::RowMetrics>(
    of: Section,
    section: &Value,
    history: &History,
    list: fn(&S) -> &[R],
) -> Option<Table> {
    let typed: S = serde_json::from_value(section.clone()).ok()?;
    let figures = list(&typed).iter().map(|r| (r.row_name().to_string(), r.row_metrics())).collect();
    figures_table(of, section, history, figures)
}

/// The units `row`'s type gives its figures, by dotted path.
pub(crate) fn units_of(row: &impl hotpath_model::RowMetrics) -> BTreeMap<String, Unit> {
    row.row_metrics().into_iter().map(|m| (m.key, m.unit)).collect()
}

/// The table of the `rows` list of `section` whose rows have the typed `figures`.
fn figures_table(of: Section, section: &Value, history: &History, figures: Vec<NamedMetrics>) -> Option<Table> {
    let raw_rows = section.get("rows")?.as_array()?;
    if raw_rows.len() != figures.len() {
        return None;
    }
    let mut columns: Vec<Column> = Vec::new();
    let mut sources = Vec::new();
    for (((name, metrics), raw), key) in figures.into_iter().zip(raw_rows).zip(row_keys(raw_rows)) {
        let by_path: BTreeMap<String, (Unit, f64)> =
            metrics.iter().map(|m| (m.key.clone(), (m.unit, m.value))).collect();
        let mut add = |key: &str, kind: Kind| {
            if !columns.iter().any(|c| c.key == key) {
                columns.push(Column { key: key.into(), title: title_of(key), kind });
            }
        };
        for field in flatten(raw).into_iter().filter(|f| shown(f, Some("name"))) {
            let kind = match by_path.get(&field.path) {
                Some((unit, _)) => Kind::Unit(*unit),
                None if field.value.is_number() => Kind::Id,
                None => Kind::Text,
            };
            add(&field.path, kind);
        }
        // Figures the JSON walk did not reach (nested deeper): after the others.
        for m in &metrics {
            add(&m.key, Kind::Unit(m.unit));
        }
        sources.push(Source { key: key.unwrap_or_else(|| name.clone()), name, raw, figures: Some(by_path) });
    }
    Some(assemble(of.key(), "name", columns, history, sources))
}

#[cfg(test)]
mod tests;
