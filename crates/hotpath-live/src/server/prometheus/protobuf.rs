//! `/metrics` in Prometheus's protobuf exposition format: each family a
//! varint-length-delimited `MetricFamily`, histograms with their classic buckets (the
//! same bounds as the text format) and their native buckets in one message. The native
//! form is [`EXPONENTIAL_SCHEMA`] (8) with a zero bucket of threshold 0 (durations of
//! exactly zero), positive buckets only, as spans of consecutive indices and
//! delta-encoded counts. A Prometheus with native histograms enabled keeps the native
//! series (one series per histogram, no `_bucket`); one without keeps the classic
//! buckets, as from the text format.

use hotpath_model::{Buckets, Family, MetricKind, Sample, BUCKET_BOUNDS_NS, EXPONENTIAL_SCHEMA};
use prost::Message;

use super::proto::{self, BucketSpan, LabelPair, Metric, MetricFamily, MetricType};

/// Appends `family` to `out`, each series led by the process labels `process`.
pub(super) fn write_family(out: &mut Vec<u8>, family: &Family, process: &[(String, String)]) {
    let kind = match family.kind {
        MetricKind::Counter => MetricType::Counter,
        MetricKind::Gauge => MetricType::Gauge,
        MetricKind::Histogram => MetricType::Histogram,
    };
    let metric = family
        .series
        .iter()
        .map(|series| {
            let own = series.labels.iter().map(|(n, v)| ((*n).to_string(), v.clone()));
            let label = process.iter().cloned().chain(own).map(|(name, value)| LabelPair { name, value }).collect();
            let mut metric = Metric { label, ..Metric::default() };
            match (&series.sample, kind) {
                (Sample::Histogram(b), _) => metric.histogram = Some(histogram(b)),
                (Sample::Value(value), MetricType::Gauge) => metric.gauge = Some(proto::Gauge { value: *value }),
                (Sample::Value(value), _) => metric.counter = Some(proto::Counter { value: *value }),
            }
            metric
        })
        .collect();
    let family = MetricFamily { name: family.name.into(), help: family.help.into(), r#type: kind as i32, metric };
    // Writing to a Vec cannot run out of room.
    let _ = family.encode_length_delimited(out);
}

/// Classic and native buckets of one series, in seconds.
pub(super) fn histogram(b: &Buckets) -> proto::Histogram {
    let bucket = BUCKET_BOUNDS_NS
        .iter()
        .zip(&b.cumulative)
        .map(|(bound, count)| proto::Bucket { cumulative_count: *count, upper_bound: *bound as f64 / 1e9 })
        .collect();
    let (positive_span, positive_delta) = spans(&b.exponential);
    proto::Histogram {
        sample_count: b.count,
        sample_sum: b.sum_ns as f64 / 1e9,
        bucket,
        schema: EXPONENTIAL_SCHEMA,
        zero_threshold: 0.0,
        zero_count: b.zero_count,
        positive_span,
        positive_delta,
    }
}

/// Sparse `(index, count)` buckets (ascending) as spans of consecutive indices and
/// each count's difference from the one before. No bucket at all is one empty span
/// (offset 0, length 0): metrics.proto's marker of a native histogram without
/// observations, so that it is not taken for a classic one.
fn spans(buckets: &[(i32, u64)]) -> (Vec<BucketSpan>, Vec<i64>) {
    let mut spans: Vec<BucketSpan> = Vec::new();
    let mut deltas = Vec::with_capacity(buckets.len());
    let (mut next, mut previous) = (None, 0i64);
    for &(index, count) in buckets {
        match spans.last_mut() {
            Some(span) if next == Some(index) => span.length += 1,
            _ => {
                // The first span starts at its index; the others at a gap from the last.
                let offset = next.map_or(index, |n| index - n);
                spans.push(BucketSpan { offset, length: 1 });
            }
        }
        next = Some(index + 1);
        let count = i64::try_from(count).unwrap_or(i64::MAX);
        deltas.push(count - previous);
        previous = count;
    }
    if spans.is_empty() {
        spans.push(BucketSpan { offset: 0, length: 0 });
    }
    (spans, deltas)
}
