//! Metric families (the same typed families `/metrics` renders) as OTLP metrics.
//!
//! Names are the Prometheus names, unchanged: an OpenTelemetry Collector exporting to
//! Prometheus keeps a name that already ends in its unit or `_total`, so pushed and
//! scraped series of a fleet meet under one name; and OTel-style names without unit
//! suffixes would collide (`hotpath_mutex_wait_seconds`, a histogram, and
//! `hotpath_mutex_wait_seconds_total`, a counter, would both become
//! `hotpath_mutex_wait`). The unit goes in `unit` (UCUM: `s`, `By`; empty for counts).
//!
//! Counters are monotonic cumulative sums, gauges gauges, and duration histograms
//! exponential histograms: the model's exponential buckets (schema 8) are OTLP's scale
//! 8, each bucket's index one less (OTLP's bucket `k` is `(base^k, base^(k+1)]`, the
//! model's `i` is `(base^(i-1), base^i]`), merged pairwise to a coarser scale when a
//! series would need more than [`MAX_BUCKETS`], as the OpenTelemetry SDKs do. A family
//! whose buckets lack the exponential form goes out as an explicit histogram at
//! [`BUCKET_BOUNDS_NS`].

use hotpath_model::{Buckets, Family, MetricKind, Sample, Series, BUCKET_BOUNDS_NS, EXPONENTIAL_SCHEMA};

use super::proto::{
    Data, ExponentialBuckets, ExponentialHistogram, ExponentialHistogramDataPoint, Gauge, Histogram,
    HistogramDataPoint, KeyValue, Metric, NumberDataPoint, Sum, CUMULATIVE,
};
use super::starts::Starts;

/// Most buckets per exponential data point (the OpenTelemetry SDKs' default max size).
pub(crate) const MAX_BUCKETS: usize = 160;

/// The time of a batch and the session it comes from, for start times.
#[derive(Clone, Copy)]
pub(crate) struct When {
    pub(crate) now_ns: u64,
    pub(crate) session_start_ns: u64,
}

/// One family as one metric; `None` when it has no series.
pub(crate) fn metric(family: &Family, when: When, starts: &mut Starts) -> Option<Metric> {
    if family.series.is_empty() {
        return None;
    }
    let mut start = |series: &Series| starts.start(family.name, series, when.session_start_ns);
    let data = match family.kind {
        MetricKind::Gauge => Data::Gauge(Gauge { data_points: numbers(family, when, |_| 0) }),
        MetricKind::Counter => Data::Sum(Sum {
            data_points: numbers(family, when, &mut start),
            aggregation_temporality: CUMULATIVE,
            is_monotonic: true,
        }),
        MetricKind::Histogram => {
            let histograms = family.series.iter().filter_map(|s| match &s.sample {
                Sample::Histogram(b) => Some((s, b)),
                Sample::Value(_) => None,
            });
            if family.series.iter().all(|s| matches!(&s.sample, Sample::Histogram(b) if exponential_complete(b))) {
                let points = histograms.map(|(s, b)| exponential(b, attributes(s), start(s), when.now_ns)).collect();
                Data::ExponentialHistogram(ExponentialHistogram {
                    data_points: points,
                    aggregation_temporality: CUMULATIVE,
                })
            } else {
                let points = histograms.map(|(s, b)| explicit(b, attributes(s), start(s), when.now_ns)).collect();
                Data::Histogram(Histogram { data_points: points, aggregation_temporality: CUMULATIVE })
            }
        }
    };
    Some(Metric {
        name: family.name.to_string(),
        description: family.help.to_string(),
        unit: unit(family.name).to_string(),
        data: Some(data),
    })
}

/// The UCUM unit a Prometheus name carries before its `_total`.
pub(crate) fn unit(name: &str) -> &'static str {
    let base = name.strip_suffix("_total").unwrap_or(name);
    if base.ends_with("_seconds") {
        "s"
    } else if base.ends_with("_bytes") {
        "By"
    } else {
        ""
    }
}

fn attributes(series: &Series) -> Vec<KeyValue> {
    series.labels.iter().map(|(k, v)| KeyValue::string(k, v)).collect()
}

fn numbers(family: &Family, when: When, mut start: impl FnMut(&Series) -> u64) -> Vec<NumberDataPoint> {
    let values = family.series.iter().filter_map(|s| match s.sample {
        Sample::Value(v) => Some((s, v)),
        Sample::Histogram(_) => None,
    });
    values
        .map(|(s, v)| NumberDataPoint {
            attributes: attributes(s),
            start_time_unix_nano: start(s),
            time_unix_nano: when.now_ns,
            as_double: Some(v),
        })
        .collect()
}

/// True when the exponential buckets and the zero bucket hold every duration.
fn exponential_complete(b: &Buckets) -> bool {
    b.zero_count + b.exponential.iter().map(|(_, c)| c).sum::<u64>() == b.count
}

/// The model's exponential buckets as one OTLP point, merged down to at most
/// [`MAX_BUCKETS`] buckets.
pub(crate) fn exponential(
    b: &Buckets,
    attributes: Vec<KeyValue>,
    start: u64,
    now: u64,
) -> ExponentialHistogramDataPoint {
    // OTLP's index of the model's bucket `i` at the model's scale.
    let indexes = || b.exponential.iter().map(|&(i, c)| (i - 1, c));
    let mut scale = EXPONENTIAL_SCHEMA;
    let positive = match (indexes().map(|(k, _)| k).min(), indexes().map(|(k, _)| k).max()) {
        (Some(mut low), Some(mut high)) => {
            while (high - low) as usize >= MAX_BUCKETS && scale > -10 {
                // Scale s-1's bucket j is scale s's buckets 2j and 2j+1.
                (low, high, scale) = (low >> 1, high >> 1, scale - 1);
            }
            let shift = EXPONENTIAL_SCHEMA - scale;
            let mut counts = vec![0u64; (high - low) as usize + 1];
            for (k, c) in indexes() {
                counts[((k >> shift) - low) as usize] += c;
            }
            Some(ExponentialBuckets { offset: low, bucket_counts: counts })
        }
        _ => None,
    };
    ExponentialHistogramDataPoint {
        attributes,
        start_time_unix_nano: start,
        time_unix_nano: now,
        count: b.count,
        sum: Some(b.sum_ns as f64 / 1e9),
        scale,
        zero_count: b.zero_count,
        positive,
        zero_threshold: 0.0,
    }
}

/// The classic buckets as one OTLP point: counts per bucket (not cumulative), bounds
/// in seconds, the last bucket above 10 s.
fn explicit(b: &Buckets, attributes: Vec<KeyValue>, start: u64, now: u64) -> HistogramDataPoint {
    let mut below = 0;
    let mut counts: Vec<u64> =
        b.cumulative.iter().map(|&c| c.saturating_sub(std::mem::replace(&mut below, c))).collect();
    counts.push(b.count.saturating_sub(below));
    HistogramDataPoint {
        attributes,
        start_time_unix_nano: start,
        time_unix_nano: now,
        count: b.count,
        sum: Some(b.sum_ns as f64 / 1e9),
        bucket_counts: counts,
        explicit_bounds: BUCKET_BOUNDS_NS.iter().take(b.cumulative.len()).map(|&n| n as f64 / 1e9).collect(),
    }
}
