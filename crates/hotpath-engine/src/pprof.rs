//! The subset of pprof's `profile.proto` (github.com/google/pprof) that hotpath writes,
//! as prost messages, and its string table. Field numbers follow the published schema.
//! Shared by the CPU profile (`cpu/export.rs`) and the heap profile (`heap/export.rs`).

use std::collections::HashMap;

/// A profile: samples over locations and functions, with a shared string table.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Profile {
    #[prost(message, repeated, tag = "1")]
    pub(crate) sample_type: Vec<ValueType>,
    #[prost(message, repeated, tag = "2")]
    pub(crate) sample: Vec<Sample>,
    #[prost(message, repeated, tag = "4")]
    pub(crate) location: Vec<Location>,
    #[prost(message, repeated, tag = "5")]
    pub(crate) function: Vec<Function>,
    #[prost(string, repeated, tag = "6")]
    pub(crate) string_table: Vec<String>,
    #[prost(int64, tag = "9")]
    pub(crate) time_nanos: i64,
    #[prost(int64, tag = "10")]
    pub(crate) duration_nanos: i64,
    #[prost(message, optional, tag = "11")]
    pub(crate) period_type: Option<ValueType>,
    #[prost(int64, tag = "12")]
    pub(crate) period: i64,
}

/// A value's type and unit, as string-table indices.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ValueType {
    #[prost(int64, tag = "1")]
    pub(crate) r#type: i64,
    #[prost(int64, tag = "2")]
    pub(crate) unit: i64,
}

/// One stack (location ids, leaf first) and its values.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Sample {
    #[prost(uint64, repeated, tag = "1")]
    pub(crate) location_id: Vec<u64>,
    #[prost(int64, repeated, tag = "2")]
    pub(crate) value: Vec<i64>,
    #[prost(message, repeated, tag = "3")]
    pub(crate) label: Vec<Label>,
}

/// A sample label (unused, declared for schema completeness of `Sample`).
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Label {
    #[prost(int64, tag = "1")]
    pub(crate) key: i64,
    #[prost(int64, tag = "2")]
    pub(crate) str: i64,
}

/// A program address and the function(s) it belongs to.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Location {
    #[prost(uint64, tag = "1")]
    pub(crate) id: u64,
    #[prost(uint64, tag = "2")]
    pub(crate) mapping_id: u64,
    #[prost(uint64, tag = "3")]
    pub(crate) address: u64,
    #[prost(message, repeated, tag = "4")]
    pub(crate) line: Vec<Line>,
}

/// A function at a location.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Line {
    #[prost(uint64, tag = "1")]
    pub(crate) function_id: u64,
    #[prost(int64, tag = "2")]
    pub(crate) line: i64,
}

/// A function, names as string-table indices.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Function {
    #[prost(uint64, tag = "1")]
    pub(crate) id: u64,
    #[prost(int64, tag = "2")]
    pub(crate) name: i64,
    #[prost(int64, tag = "3")]
    pub(crate) system_name: i64,
    #[prost(int64, tag = "4")]
    pub(crate) filename: i64,
    #[prost(int64, tag = "5")]
    pub(crate) start_line: i64,
}

/// The pprof string table; index 0 must be the empty string.
pub(crate) struct Strings {
    pub(crate) table: Vec<String>,
    index: HashMap<String, i64>,
}

impl Default for Strings {
    fn default() -> Self {
        Self { table: vec![String::new()], index: HashMap::from([(String::new(), 0)]) }
    }
}

impl Strings {
    pub(crate) fn id(&mut self, s: &str) -> i64 {
        if let Some(&id) = self.index.get(s) {
            return id;
        }
        let id = self.table.len() as i64;
        self.table.push(s.to_string());
        self.index.insert(s.to_string(), id);
        id
    }
}
