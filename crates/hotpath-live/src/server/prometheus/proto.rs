//! The subset of Prometheus's exposition protobuf (`io.prometheus.client`,
//! `metrics.proto` of prometheus/client_model, as vendored in Prometheus 2.42's
//! prompb/) that `/metrics` writes: families of counters, gauges and histograms, a
//! histogram with its classic buckets and its native (exponential) ones. Field numbers
//! and types follow the published schema; fields hotpath never sets (summaries,
//! exemplars, float counts, negative buckets, timestamps) are left out, which a
//! decoder reads as absent. The scrape body is each family as a varint-length-delimited
//! message, one after another.

/// `MetricType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, prost::Enumeration)]
#[repr(i32)]
pub(crate) enum MetricType {
    Counter = 0,
    Gauge = 1,
    Histogram = 4,
}

/// One family: its name, help, type and series.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct MetricFamily {
    #[prost(string, tag = "1")]
    pub(crate) name: String,
    #[prost(string, tag = "2")]
    pub(crate) help: String,
    #[prost(enumeration = "MetricType", tag = "3")]
    pub(crate) r#type: i32,
    #[prost(message, repeated, tag = "4")]
    pub(crate) metric: Vec<Metric>,
}

/// One series: labels and the value of the family's type.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Metric {
    #[prost(message, repeated, tag = "1")]
    pub(crate) label: Vec<LabelPair>,
    #[prost(message, optional, tag = "2")]
    pub(crate) gauge: Option<Gauge>,
    #[prost(message, optional, tag = "3")]
    pub(crate) counter: Option<Counter>,
    #[prost(message, optional, tag = "7")]
    pub(crate) histogram: Option<Histogram>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct LabelPair {
    #[prost(string, tag = "1")]
    pub(crate) name: String,
    #[prost(string, tag = "2")]
    pub(crate) value: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Gauge {
    #[prost(double, tag = "1")]
    pub(crate) value: f64,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Counter {
    #[prost(double, tag = "1")]
    pub(crate) value: f64,
}

/// Classic buckets (`bucket`) and native ones (`schema` onwards) of one series.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Histogram {
    #[prost(uint64, tag = "1")]
    pub(crate) sample_count: u64,
    #[prost(double, tag = "2")]
    pub(crate) sample_sum: f64,
    #[prost(message, repeated, tag = "3")]
    pub(crate) bucket: Vec<Bucket>,
    #[prost(sint32, tag = "5")]
    pub(crate) schema: i32,
    #[prost(double, tag = "6")]
    pub(crate) zero_threshold: f64,
    #[prost(uint64, tag = "7")]
    pub(crate) zero_count: u64,
    #[prost(message, repeated, tag = "12")]
    pub(crate) positive_span: Vec<BucketSpan>,
    /// Each bucket's count minus the previous bucket's (the first's minus zero).
    #[prost(sint64, repeated, tag = "13")]
    pub(crate) positive_delta: Vec<i64>,
}

/// A classic bucket: observations of at most `upper_bound`, cumulative.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Bucket {
    #[prost(uint64, tag = "1")]
    pub(crate) cumulative_count: u64,
    #[prost(double, tag = "2")]
    pub(crate) upper_bound: f64,
}

/// `length` consecutive native buckets, `offset` after the previous span's last (the
/// first span's `offset` is its first bucket's index).
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct BucketSpan {
    #[prost(sint32, tag = "1")]
    pub(crate) offset: i32,
    #[prost(uint32, tag = "2")]
    pub(crate) length: u32,
}
