//! The numeric fields of one JSON object, read as it streams by: each number becomes
//! a value of the metric named by its dotted path (`blocked.percentiles_ns.p50`),
//! classified by `hotpath_model::Unit`; the object's string `name` names the row.
//! Strings, booleans, arrays and identity fields (`line`, `tid`) are skipped.

use std::collections::HashSet;
use std::fmt;

use hotpath_model::Unit;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::compare::samples::{RowValues, Section};

/// Nested objects deeper than this (row → `lock` → `wait` → `percentiles_ns`) are skipped.
const MAX_DEPTH: usize = 4;

/// What is being read: the section the metrics go to and the row being filled.
pub(crate) struct Fields<'s> {
    pub(crate) section: &'s mut Section,
    /// Paths found to be identity fields, not looked up again.
    pub(crate) skipped: &'s mut HashSet<String>,
    pub(crate) name: Option<String>,
    pub(crate) values: RowValues,
    /// Dotted path of the field being read, and where each of its parts starts.
    path: String,
    starts: Vec<usize>,
}

impl<'s> Fields<'s> {
    pub(crate) fn new(section: &'s mut Section, skipped: &'s mut HashSet<String>) -> Self {
        Self { section, skipped, name: None, values: Vec::new(), path: String::new(), starts: Vec::new() }
    }

    /// Reads every entry of an object at the current path.
    pub(crate) fn entries<'de, A: MapAccess<'de>>(&mut self, mut map: A) -> Result<(), A::Error> {
        let depth = self.starts.len();
        let len = self.path.len();
        while map.next_key_seed(Key(self))?.is_some() {
            map.next_value_seed(Field(self))?;
            self.path.truncate(len);
            self.starts.truncate(depth);
        }
        Ok(())
    }

    /// Reads the next top-level key of `map` (the caller handles some keys itself,
    /// such as a section's `rows`); false at the end of the object.
    pub(crate) fn next_key<'de, A: MapAccess<'de>>(&mut self, map: &mut A) -> Result<bool, A::Error> {
        self.path.clear();
        self.starts.clear();
        Ok(map.next_key_seed(Key(self))?.is_some())
    }

    /// The key [`Fields::next_key`] read.
    pub(crate) fn key(&self) -> &str {
        &self.path
    }

    /// Reads the value of that key as a field of the row.
    pub(crate) fn next_value<'de, A: MapAccess<'de>>(&mut self, map: &mut A) -> Result<(), A::Error> {
        map.next_value_seed(Field(self))
    }

    fn number(&mut self, value: f64, integer: bool) {
        if let Some(metric) = self.section.index_of(&self.path) {
            self.values.push((metric, value));
            return;
        }
        if self.skipped.contains(&self.path) {
            return;
        }
        let n = self.starts.len();
        let field = &self.path[self.starts[n - 1]..];
        let parent = (n >= 2).then(|| &self.path[self.starts[n - 2]..self.starts[n - 1] - 1]);
        match Unit::of_field(field, parent, integer) {
            Some(unit) => {
                let metric = self.section.metric(&self.path, &self.path, unit);
                self.values.push((metric, value));
            }
            None => {
                self.skipped.insert(self.path.clone());
            }
        }
    }
}

/// Appends a key to the path.
struct Key<'f, 's>(&'f mut Fields<'s>);

impl<'de> DeserializeSeed<'de> for Key<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E>(self, key: &str) -> Result<(), E> {
        let fields = self.0;
        if !fields.starts.is_empty() {
            fields.path.push('.');
        }
        fields.starts.push(fields.path.len());
        fields.path.push_str(key);
        Ok(())
    }
}

/// One field's value.
struct Field<'f, 's>(&'f mut Fields<'s>);

impl<'de> DeserializeSeed<'de> for Field<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Field<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.0.number(v as f64, true);
        Ok(())
    }
    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.0.number(v as f64, true);
        Ok(())
    }
    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        self.0.number(v, false);
        Ok(())
    }
    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        if self.0.starts.len() == 1 && self.0.path == "name" {
            self.0.name = Some(v.to_string());
        }
        Ok(())
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        if self.0.starts.len() < MAX_DEPTH {
            self.0.entries(map)
        } else {
            drain_map(map)
        }
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(())
    }
}

fn drain_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}
