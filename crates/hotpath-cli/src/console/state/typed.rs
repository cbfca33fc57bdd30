//! The sections whose rows the model types with `hotpath_model::RowMetrics` as tables
//! read through those types: channels, streams, futures, mutexes and rw_locks (Data
//! flow tab), server, http and sql (Services), the trackers (Debug). Every figure and
//! its unit come from the row's `row_metrics`, its name from `row_name`; the JSON gives
//! only the column order (the report's field order) and the text columns (`kind`,
//! `route`), so no unit is guessed from a field name. A number the type does not list
//! identifies (`id`, `column`) and is shown as it is. A section its type cannot read
//! (a report of another build) is left to the generic table.

use std::collections::BTreeMap;

use hotpath_model::{
    Channels, DebugTrackers, Futures, Http, Mutexes, RowMetrics, RwLocks, Section, Server, Sql, Streams, Unit,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::fields::{flatten, row_keys};
use super::generic::{assemble, shown, Source};
use super::history::History;
use super::labels::title_of;
use super::table::{Column, Kind, Table};

/// The table of section `of` read as its model type; `None` for a section without a
/// typed row list here, or whose JSON the type cannot read.
pub(crate) fn table(of: Section, section: &Value, history: &History) -> Option<Table> {
    match of {
        Section::Channels => rows(of, section, history, |s: &Channels| &s.rows),
        Section::Streams => rows(of, section, history, |s: &Streams| &s.rows),
        Section::Futures => rows(of, section, history, |s: &Futures| &s.rows),
        Section::Mutexes => rows(of, section, history, |s: &Mutexes| &s.rows),
        Section::RwLocks => rows(of, section, history, |s: &RwLocks| &s.rows),
        Section::Server => rows(of, section, history, |s: &Server| &s.rows),
        Section::Http => rows(of, section, history, |s: &Http| &s.rows),
        Section::Sql => rows(of, section, history, |s: &Sql| &s.rows),
        Section::Debug => rows(of, section, history, |s: &DebugTrackers| &s.rows),
        _ => None,
    }
}

/// The units `row`'s type gives its figures, by dotted path.
pub(crate) fn units_of(row: &impl RowMetrics) -> BTreeMap<String, Unit> {
    row.row_metrics().into_iter().map(|m| (m.key, m.unit)).collect()
}

/// The table of the `rows` list of `section`, read as `S` whose rows `list` gives.
pub(crate) fn rows<S: DeserializeOwned, R: RowMetrics>(
    of: Section,
    section: &Value,
    history: &History,
    list: fn(&S) -> &[R],
) -> Option<Table> {
    let typed: S = serde_json::from_value(section.clone()).ok()?;
    let typed_rows = list(&typed);
    let raw_rows = section.get("rows")?.as_array()?;
    if raw_rows.len() != typed_rows.len() {
        return None;
    }
    let mut columns: Vec<Column> = Vec::new();
    let mut sources = Vec::new();
    for ((row, raw), key) in typed_rows.iter().zip(raw_rows).zip(row_keys(raw_rows)) {
        let metrics = row.row_metrics();
        let figures: BTreeMap<String, (Unit, f64)> =
            metrics.iter().map(|m| (m.key.clone(), (m.unit, m.value))).collect();
        let mut add = |key: &str, kind: Kind| {
            if !columns.iter().any(|c| c.key == key) {
                columns.push(Column { key: key.into(), title: title_of(key), kind });
            }
        };
        for field in flatten(raw).into_iter().filter(|f| shown(f, Some("name"))) {
            let kind = match figures.get(&field.path) {
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
        let name = row.row_name().to_string();
        sources.push(Source { key: key.unwrap_or_else(|| name.clone()), name, raw, figures: Some(figures) });
    }
    Some(assemble(of.key(), "name", columns, history, sources))
}

#[cfg(test)]
mod tests;
