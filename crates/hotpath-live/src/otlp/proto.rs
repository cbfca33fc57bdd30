//! The subset of OpenTelemetry's protos that a metrics export request needs
//! (`opentelemetry/proto/collector/metrics/v1/metrics_service.proto`,
//! `metrics/v1/metrics.proto`, `common/v1/common.proto`, `resource/v1/resource.proto`
//! in github.com/open-telemetry/opentelemetry-proto), as prost messages. Field
//! numbers and types follow the published schema (checked against the compiled
//! schema of PyPI's `opentelemetry-proto` 1.45.2 by `tests/otlp_export.rs`); fields
//! hotpath never sets are left out, which protobuf readers treat as unset. A oneof
//! of which one member is ever set is written as that member, optional: the same
//! bytes on the wire.

/// `ExportMetricsServiceRequest`: the body of a POST to `/v1/metrics`.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ExportMetricsServiceRequest {
    #[prost(message, repeated, tag = "1")]
    pub(crate) resource_metrics: Vec<ResourceMetrics>,
}

/// `ExportMetricsServiceResponse`: an empty body, or a partial success.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ExportMetricsServiceResponse {
    #[prost(message, optional, tag = "1")]
    pub(crate) partial_success: Option<ExportMetricsPartialSuccess>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ExportMetricsPartialSuccess {
    #[prost(int64, tag = "1")]
    pub(crate) rejected_data_points: i64,
    #[prost(string, tag = "2")]
    pub(crate) error_message: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ResourceMetrics {
    #[prost(message, optional, tag = "1")]
    pub(crate) resource: Option<Resource>,
    #[prost(message, repeated, tag = "2")]
    pub(crate) scope_metrics: Vec<ScopeMetrics>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Resource {
    #[prost(message, repeated, tag = "1")]
    pub(crate) attributes: Vec<KeyValue>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ScopeMetrics {
    #[prost(message, optional, tag = "1")]
    pub(crate) scope: Option<InstrumentationScope>,
    #[prost(message, repeated, tag = "2")]
    pub(crate) metrics: Vec<Metric>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct InstrumentationScope {
    #[prost(string, tag = "1")]
    pub(crate) name: String,
    #[prost(string, tag = "2")]
    pub(crate) version: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct KeyValue {
    #[prost(string, tag = "1")]
    pub(crate) key: String,
    #[prost(message, optional, tag = "2")]
    pub(crate) value: Option<AnyValue>,
}

/// `AnyValue`'s oneof `value`, of which hotpath writes a string or an integer.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct AnyValue {
    #[prost(string, optional, tag = "1")]
    pub(crate) string_value: Option<String>,
    #[prost(int64, optional, tag = "3")]
    pub(crate) int_value: Option<i64>,
}

impl KeyValue {
    pub(crate) fn string(key: &str, value: &str) -> Self {
        let value = AnyValue { string_value: Some(value.to_string()), int_value: None };
        Self { key: key.to_string(), value: Some(value) }
    }

    pub(crate) fn int(key: &str, value: i64) -> Self {
        Self { key: key.to_string(), value: Some(AnyValue { string_value: None, int_value: Some(value) }) }
    }
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Metric {
    #[prost(string, tag = "1")]
    pub(crate) name: String,
    #[prost(string, tag = "2")]
    pub(crate) description: String,
    #[prost(string, tag = "3")]
    pub(crate) unit: String,
    #[prost(oneof = "Data", tags = "5, 7, 9, 10")]
    pub(crate) data: Option<Data>,
}

/// `Metric`'s oneof `data` (summaries are never written).
#[derive(Clone, PartialEq, prost::Oneof)]
pub(crate) enum Data {
    #[prost(message, tag = "5")]
    Gauge(Gauge),
    #[prost(message, tag = "7")]
    Sum(Sum),
    #[prost(message, tag = "9")]
    Histogram(Histogram),
    #[prost(message, tag = "10")]
    ExponentialHistogram(ExponentialHistogram),
}

/// `AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE`.
pub(crate) const CUMULATIVE: i32 = 2;

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Gauge {
    #[prost(message, repeated, tag = "1")]
    pub(crate) data_points: Vec<NumberDataPoint>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Sum {
    #[prost(message, repeated, tag = "1")]
    pub(crate) data_points: Vec<NumberDataPoint>,
    #[prost(int32, tag = "2")]
    pub(crate) aggregation_temporality: i32,
    #[prost(bool, tag = "3")]
    pub(crate) is_monotonic: bool,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct Histogram {
    #[prost(message, repeated, tag = "1")]
    pub(crate) data_points: Vec<HistogramDataPoint>,
    #[prost(int32, tag = "2")]
    pub(crate) aggregation_temporality: i32,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ExponentialHistogram {
    #[prost(message, repeated, tag = "1")]
    pub(crate) data_points: Vec<ExponentialHistogramDataPoint>,
    #[prost(int32, tag = "2")]
    pub(crate) aggregation_temporality: i32,
}

/// A counter's or gauge's point; its oneof `value` is always `as_double`.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct NumberDataPoint {
    #[prost(message, repeated, tag = "7")]
    pub(crate) attributes: Vec<KeyValue>,
    #[prost(fixed64, tag = "2")]
    pub(crate) start_time_unix_nano: u64,
    #[prost(fixed64, tag = "3")]
    pub(crate) time_unix_nano: u64,
    #[prost(double, optional, tag = "4")]
    pub(crate) as_double: Option<f64>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct HistogramDataPoint {
    #[prost(message, repeated, tag = "9")]
    pub(crate) attributes: Vec<KeyValue>,
    #[prost(fixed64, tag = "2")]
    pub(crate) start_time_unix_nano: u64,
    #[prost(fixed64, tag = "3")]
    pub(crate) time_unix_nano: u64,
    #[prost(fixed64, tag = "4")]
    pub(crate) count: u64,
    #[prost(double, optional, tag = "5")]
    pub(crate) sum: Option<f64>,
    #[prost(fixed64, repeated, tag = "6")]
    pub(crate) bucket_counts: Vec<u64>,
    #[prost(double, repeated, tag = "7")]
    pub(crate) explicit_bounds: Vec<f64>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ExponentialHistogramDataPoint {
    #[prost(message, repeated, tag = "1")]
    pub(crate) attributes: Vec<KeyValue>,
    #[prost(fixed64, tag = "2")]
    pub(crate) start_time_unix_nano: u64,
    #[prost(fixed64, tag = "3")]
    pub(crate) time_unix_nano: u64,
    #[prost(fixed64, tag = "4")]
    pub(crate) count: u64,
    #[prost(double, optional, tag = "5")]
    pub(crate) sum: Option<f64>,
    #[prost(sint32, tag = "6")]
    pub(crate) scale: i32,
    #[prost(fixed64, tag = "7")]
    pub(crate) zero_count: u64,
    #[prost(message, optional, tag = "8")]
    pub(crate) positive: Option<ExponentialBuckets>,
    #[prost(double, tag = "14")]
    pub(crate) zero_threshold: f64,
}

/// `ExponentialHistogramDataPoint.Buckets`: dense counts from bucket `offset` on.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ExponentialBuckets {
    #[prost(sint32, tag = "1")]
    pub(crate) offset: i32,
    #[prost(uint64, repeated, tag = "2")]
    pub(crate) bucket_counts: Vec<u64>,
}
