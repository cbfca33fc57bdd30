//! Any report section read as plain JSON while it streams by, so that sections added
//! after this code are compared without touching it. The conventions relied on
//! (docs/JSON_SCHEMA.md): a section is an object with a `rows` array (or an array
//! itself) whose rows name themselves with `name`; numeric fields are classified by
//! `hotpath_model::Unit`; nested objects are flattened to dotted paths
//! (`lock.wait.percentiles_ns.p50`). A section that is a plain object of numbers
//! (runtime gauges) becomes one row named after it.

mod fields;

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::compare::samples::{RowValues, Section};
use fields::Fields;

/// Visitor methods that accept any scalar (number, string, boolean, null) as `$value`.
macro_rules! scalars_are {
    ($value:expr) => {
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
}

/// Reads section `key` of a report whose row limit is `limit`; `None` when the
/// section has no row shape. A section holding exactly `limit` rows may have been cut.
pub(crate) struct SectionSeed<'a> {
    pub(crate) key: &'a str,
    pub(crate) limit: usize,
}

impl<'de> DeserializeSeed<'de> for SectionSeed<'_> {
    type Value = Option<Section>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for SectionSeed<'_> {
    type Value = Option<Section>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a report section")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let mut rows = Rows::default();
        rows.read(seq)?;
        Ok(Some(rows.finish(self.limit)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut rows = Rows::default();
        // `Some(true)`: a `rows` array was read; `Some(false)`: `rows` is something else.
        let mut has_rows = None;
        let mut own = RowValues::new();
        loop {
            let mut fields = Fields::new(&mut rows.section, &mut rows.skipped);
            if !fields.next_key(&mut map)? {
                break;
            }
            if fields.key() == "rows" {
                has_rows = Some(map.next_value_seed(RowsSeed(&mut rows))?);
            } else {
                fields.next_value(&mut map)?;
                own.append(&mut fields.values);
            }
        }
        Ok(match has_rows {
            Some(true) => Some(rows.finish(self.limit)),
            Some(false) => None,
            None => {
                let mut section = rows.finish(0);
                if !own.is_empty() {
                    section.rows.insert(self.key.to_string(), own);
                }
                Some(section)
            }
        })
    }
    scalars_are!(None);
}

/// The rows of a section as they are read.
#[derive(Default)]
struct Rows {
    section: Section,
    skipped: HashSet<String>,
    /// Names seen more than once, with the last number given (`worker #3`).
    repeated: HashMap<String, usize>,
    /// Rows with a name, including those without numbers.
    named: usize,
}

impl Rows {
    fn read<'de, A: SeqAccess<'de>>(&mut self, mut seq: A) -> Result<(), A::Error> {
        while let Some(row) = seq.next_element_seed(RowSeed(self))? {
            let Some((name, values)) = row else { continue };
            self.named += 1;
            let name = self.unique(name);
            if !values.is_empty() {
                self.section.rows.insert(name, values);
            }
        }
        Ok(())
    }

    /// A repeated name (several threads called `tokio-runtime-worker`) gets ` #2`,
    /// ` #3`... in order of appearance.
    fn unique(&mut self, name: String) -> String {
        if !self.section.rows.contains_key(&name) {
            return name;
        }
        let n = self.repeated.entry(name.clone()).or_insert(1);
        loop {
            *n += 1;
            let candidate = format!("{name} #{n}");
            if !self.section.rows.contains_key(&candidate) {
                return candidate;
            }
        }
    }

    fn finish(self, limit: usize) -> Section {
        Section { truncated: limit > 0 && self.named >= limit, ..self.section }
    }
}

/// The value of `rows`: true when it is an array (of rows).
struct RowsSeed<'r>(&'r mut Rows);

impl<'de> DeserializeSeed<'de> for RowsSeed<'_> {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for RowsSeed<'_> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of rows")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<bool, A::Error> {
        self.0.read(seq)?;
        Ok(true)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(false)
    }
    scalars_are!(false);
}

/// One element of `rows`: its name and values, or `None` when it is no named object.
struct RowSeed<'r>(&'r mut Rows);

impl<'de> DeserializeSeed<'de> for RowSeed<'_> {
    type Value = Option<(String, RowValues)>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for RowSeed<'_> {
    type Value = Option<(String, RowValues)>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a row object")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let rows = self.0;
        let mut fields = Fields::new(&mut rows.section, &mut rows.skipped);
        fields.entries(map)?;
        Ok(fields.name.take().map(|name| (name, std::mem::take(&mut fields.values))))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    scalars_are!(None);
}

#[cfg(test)]
mod tests;
