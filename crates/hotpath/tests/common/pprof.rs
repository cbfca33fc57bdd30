//! pprof's profile.proto, the fields the tests read (`cpu_sampling.rs`, `heap_leaks.rs`),
//! declared independently of the runtime's own encoder. Included with `#[path]`.

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
    #[prost(int64, tag = "12")]
    pub(crate) period: i64,
}
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ValueType {
    #[prost(int64, tag = "1")]
    pub(crate) r#type: i64,
    #[prost(int64, tag = "2")]
    pub(crate) unit: i64,
}
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Sample {
    #[prost(uint64, repeated, tag = "1")]
    pub(crate) location_id: Vec<u64>,
    #[prost(int64, repeated, tag = "2")]
    pub(crate) value: Vec<i64>,
}
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Location {
    #[prost(uint64, tag = "1")]
    pub(crate) id: u64,
    #[prost(message, repeated, tag = "4")]
    pub(crate) line: Vec<Line>,
}
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Line {
    #[prost(uint64, tag = "1")]
    pub(crate) function_id: u64,
    #[prost(int64, tag = "2")]
    pub(crate) line: i64,
}
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Function {
    #[prost(uint64, tag = "1")]
    pub(crate) id: u64,
    #[prost(int64, tag = "2")]
    pub(crate) name: i64,
    #[prost(int64, tag = "4")]
    pub(crate) filename: i64,
}
