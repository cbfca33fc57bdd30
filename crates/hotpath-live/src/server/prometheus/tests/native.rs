//! The protobuf exposition decoded with the same prost messages: the text format's
//! families, labels and values, and native histograms beside the classic buckets.

use prost::Message;

use super::super::proto::{BucketSpan, MetricFamily, MetricType};
use super::super::protobuf::histogram;
use super::*;

/// Every `MetricFamily` of a delimited body.
fn decode(mut body: &[u8]) -> Vec<MetricFamily> {
    let mut families = Vec::new();
    while !body.is_empty() {
        families.push(MetricFamily::decode_length_delimited(&mut body).expect("a delimited MetricFamily"));
    }
    families
}

/// `(index, count)` buckets back from spans and deltas.
fn buckets_of(spans: &[BucketSpan], deltas: &[i64]) -> Vec<(i32, u64)> {
    let (mut out, mut index, mut count, mut deltas) = (Vec::new(), 0, 0i64, deltas.iter());
    for (k, span) in spans.iter().enumerate() {
        index = if k == 0 { span.offset } else { index + span.offset };
        for _ in 0..span.length {
            count += deltas.next().expect("a delta per bucket");
            out.push((index, count as u64));
            index += 1;
        }
    }
    assert!(deltas.next().is_none(), "no delta beyond the spans");
    out
}

#[test]
fn protobuf_serves_the_text_formats_families() {
    let labels = [("service".to_string(), "api \"v2\"".to_string())];
    let exposition = Exposition::new(&labels);
    let families = decode(&rendered(&exposition, Format::Protobuf));
    let text = String::from_utf8(rendered(&exposition, Format::Text)).unwrap();
    let typed: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .map(|l| l.split_once(' ').map(|(n, k)| (n.to_string(), k.to_string())).unwrap())
        .collect();
    let decoded: Vec<(String, String)> = families
        .iter()
        .map(|f| {
            let kind = match MetricType::try_from(f.r#type).unwrap() {
                MetricType::Counter => "counter",
                MetricType::Gauge => "gauge",
                MetricType::Histogram => "histogram",
            };
            (f.name.clone(), kind.to_string())
        })
        .collect();
    assert_eq!(decoded, typed, "the same families, in the same order, of the same types");
    for family in &families {
        for metric in &family.metric {
            // Unescaped here: the protobuf carries label values as they are.
            assert_eq!((metric.label[0].name.as_str(), metric.label[0].value.as_str()), ("service", "api \"v2\""));
            let kind = MetricType::try_from(family.r#type).unwrap();
            let set = (metric.counter.is_some(), metric.gauge.is_some(), metric.histogram.is_some());
            let expected = match kind {
                MetricType::Counter => (true, false, false),
                MetricType::Gauge => (false, true, false),
                MetricType::Histogram => (false, false, true),
            };
            assert_eq!(set, expected, "{}", family.name);
        }
    }
    let value = |name: &str| {
        let family = families.iter().find(|f| f.name == name).unwrap();
        let metric = &family.metric[0];
        metric.counter.as_ref().map(|c| c.value).or(metric.gauge.as_ref().map(|g| g.value)).unwrap()
    };
    assert_eq!(value("hotpath_function_time_seconds_total"), 0.005);
    assert_eq!(value("hotpath_uptime_seconds"), 1.5);
    assert_eq!(value("hotpath_info"), 1.0);
}

#[test]
fn histograms_are_native_with_their_classic_buckets() {
    let families = decode(&rendered(&Exposition::default(), Format::Protobuf));
    let family = families.iter().find(|f| f.name == "hotpath_function_duration_seconds").unwrap();
    let metric = &family.metric[0];
    let labels: Vec<(&str, &str)> = metric.label.iter().map(|l| (l.name.as_str(), l.value.as_str())).collect();
    assert_eq!(labels, [("function", "app::f")]);
    let h = metric.histogram.as_ref().unwrap();
    assert_eq!((h.sample_count, h.sample_sum), (3, 0.0015));
    // Classic: the text format's bounds and counts (+Inf is the count).
    let classic: Vec<(f64, u64)> = h.bucket.iter().map(|b| (b.upper_bound, b.cumulative_count)).collect();
    let bounds = [1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0];
    assert_eq!(classic, bounds.into_iter().zip([0, 1, 1, 2, 3, 3, 3, 3, 3]).collect::<Vec<_>>());
    // Native: schema 8, zero bucket of threshold 0, and each duration in its bucket.
    assert_eq!((h.schema, h.zero_threshold, h.zero_count), (8, 0.0, 0));
    let native = buckets_of(&h.positive_span, &h.positive_delta);
    assert_eq!(native.len(), 3, "three separate buckets: {native:?}");
    for ((index, count), seconds) in native.iter().zip([500e-9, 50e-6, 900e-6]) {
        assert_eq!(*count, 1);
        assert!(exponential_upper(index - 1) < seconds && seconds <= exponential_upper(*index), "{seconds} in {index}");
    }
    // Three spans: the buckets are far apart.
    assert_eq!(h.positive_span.len(), 3);
}

#[test]
fn spans_join_consecutive_buckets_and_deltas_follow_counts() {
    let b = Buckets::new(vec![0; 9], 12, 0).with_exponential(2, vec![(-3, 4), (-2, 1), (-1, 1), (5, 3), (7, 1)]);
    let h = histogram(&b);
    let spans: Vec<(i32, u32)> = h.positive_span.iter().map(|s| (s.offset, s.length)).collect();
    // An offset after the first counts the empty buckets since the previous span.
    assert_eq!(spans, [(-3, 3), (5, 1), (1, 1)]);
    assert_eq!(h.positive_delta, [4, -3, 0, 2, -2]);
    assert_eq!(buckets_of(&h.positive_span, &h.positive_delta), b.exponential);
    assert_eq!(h.zero_count, 2);
    // No observation yet: one empty span, metrics.proto's marker of an empty native histogram.
    let empty = histogram(&Buckets::new(vec![0; 9], 0, 0));
    assert_eq!((empty.positive_span, empty.positive_delta), (vec![BucketSpan { offset: 0, length: 0 }], vec![]));
}

#[test]
fn carried_counts_are_the_same_in_both_formats() {
    let exposition = Exposition::default();
    render(&Snapshot::new(report(), Duration::from_millis(1500)), &Stats::default(), &exposition, Format::Protobuf);
    // Session 2 starts from zero with the same counts again: both formats serve twice them.
    let mut second = report();
    if let Some(t) = second.functions_timing.as_mut() {
        t.rows[0].buckets = Some(Buckets::new(vec![0, 0, 0, 0, 1, 1, 1, 1, 1], 1, 500_000).with_exponential(1, vec![]));
    }
    let mut snapshot = Snapshot::new(second, Duration::from_millis(1500));
    snapshot.session = 2;
    let body = render(&snapshot, &Stats::default(), &exposition, Format::Protobuf);
    let text = String::from_utf8(render(&snapshot, &Stats::default(), &exposition, Format::Text)).unwrap();
    let families = decode(&body);
    let family = families.iter().find(|f| f.name == "hotpath_function_duration_seconds").unwrap();
    let h = family.metric[0].histogram.as_ref().unwrap();
    assert_eq!((h.sample_count, h.zero_count), (4, 1));
    assert_eq!(buckets_of(&h.positive_span, &h.positive_delta).iter().map(|b| b.1).sum::<u64>(), 3);
    assert!(text.contains("hotpath_function_duration_seconds_count{function=\"app::f\"} 4"), "{text}");
}
