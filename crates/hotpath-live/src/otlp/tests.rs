use std::net::TcpListener;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hotpath_model::{exponential_index, Buckets, Family, MetricKind, BUCKET_BOUNDS_NS};
use hotpath_session::OtlpEndpoint;

use super::convert::{exponential, metric, unit, When, MAX_BUCKETS};
use super::outbox::{Outbox, CAPACITY};
use super::proto::Data;
use super::starts::Starts;
use crate::otlp_stats::OtlpStats;

/// An endpoint nobody listens on: a port the system gave out and took back.
fn refused() -> OtlpEndpoint {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    OtlpEndpoint::parse(&format!("http://127.0.0.1:{port}")).unwrap()
}

#[test]
fn a_down_endpoint_fills_the_queue_up_to_its_bound_and_counts_drops() {
    let stats = Arc::new(OtlpStats::default());
    let mut outbox = Outbox::new(refused(), Arc::clone(&stats));
    let began = Instant::now();
    for n in 0..CAPACITY + 5 {
        outbox.push(vec![n as u8; 16]);
        outbox.flush(Instant::now() + Duration::from_secs(5));
    }
    // A refused connection is an error at once: nothing waited on a timeout.
    assert!(began.elapsed() < Duration::from_secs(20), "flushing took {:?}", began.elapsed());
    assert_eq!(outbox.len(), CAPACITY);
    assert_eq!(stats.dropped.load(Relaxed), 5);
    assert_eq!(stats.failed.load(Relaxed), CAPACITY as u64 + 5);
    assert_eq!((stats.sent.load(Relaxed), stats.queued.load(Relaxed)), (0, CAPACITY as u64));
    assert!(stats.last_error.lock().unwrap().as_deref().is_some_and(|e| e.contains("retrying")));
}

#[test]
fn units_come_from_the_prometheus_suffixes() {
    assert_eq!(unit("hotpath_function_duration_seconds"), "s");
    assert_eq!(unit("hotpath_mutex_wait_seconds_total"), "s");
    assert_eq!(unit("hotpath_io_bytes_total"), "By");
    assert_eq!(unit("hotpath_profiler_memory_bytes"), "By");
    assert_eq!(unit("hotpath_function_polls_total"), "");
}

/// The OTLP bucket holding `seconds` at `scale`: `(base^k, base^(k+1)]`.
fn otlp_bucket(seconds: f64, scale: i32) -> i32 {
    let base = (2f64).powf((2f64).powi(-scale));
    let mut k = (seconds.log2() * (2f64).powi(scale)).ceil() as i32 - 1;
    while seconds > base.powi(k + 1) {
        k += 1;
    }
    while seconds <= base.powi(k) {
        k -= 1;
    }
    k
}

fn buckets_of(values: &[f64]) -> Buckets {
    let mut exp: Vec<(i32, u64)> = Vec::new();
    for v in values {
        let i = exponential_index(*v);
        match exp.iter_mut().find(|(j, _)| *j == i) {
            Some(slot) => slot.1 += 1,
            None => exp.push((i, 1)),
        }
    }
    exp.sort();
    let sum = values.iter().map(|v| (v * 1e9) as u64).sum();
    let cumulative = BUCKET_BOUNDS_NS.iter().map(|b| values.iter().filter(|v| **v * 1e9 <= *b as f64).count() as u64);
    Buckets::new(cumulative.collect(), values.len() as u64, sum).with_exponential(0, exp)
}

#[test]
fn exponential_buckets_keep_their_bounds_at_otlp_offsets() {
    // Close values: scale 8, each in the OTLP bucket the spec's formula names.
    let values = [1.0, 1.001, 0.95, 1.1, 3.3e-3];
    let point = exponential(&buckets_of(&values[..4]), Vec::new(), 1, 2);
    assert_eq!(point.scale, 8);
    let positive = point.positive.unwrap();
    for v in &values[..4] {
        let k = otlp_bucket(*v, 8);
        assert!(positive.bucket_counts[(k - positive.offset) as usize] > 0, "{v} in {k}");
    }
    assert_eq!(otlp_bucket(1.0, 8), -1, "1 s is the upper bound of OTLP's bucket -1");
    assert_eq!(positive.offset, otlp_bucket(0.95, 8));
    // Wide values: merged to a coarser scale, within the bucket limit, nothing lost.
    let point = exponential(&buckets_of(&values), Vec::new(), 1, 2);
    let positive = point.positive.unwrap();
    assert!(point.scale < 8 && positive.bucket_counts.len() <= MAX_BUCKETS, "{}", point.scale);
    assert_eq!(positive.bucket_counts.iter().sum::<u64>(), values.len() as u64);
    for v in values {
        let k = otlp_bucket(v, point.scale);
        assert!(positive.bucket_counts[(k - positive.offset) as usize] > 0, "{v} in {k} at {}", point.scale);
    }
}

#[test]
fn histograms_without_the_exponential_form_go_out_explicit() {
    let when = When { now_ns: 20, session_start_ns: 10 };
    let mut f = Family::new("h_seconds", MetricKind::Histogram, "h");
    f.histogram(&[("function", "f")], Some(&Buckets::new(vec![0, 1, 1, 2, 3, 3, 3, 3, 3], 4, 1_500_000)));
    let m = metric(&f, when, &mut Starts::default()).unwrap();
    let Some(Data::Histogram(h)) = m.data else { panic!("{:?}", m.data) };
    let p = &h.data_points[0];
    assert_eq!(p.bucket_counts, [0, 1, 0, 1, 1, 0, 0, 0, 0, 1]);
    assert_eq!((p.count, p.explicit_bounds.len(), p.start_time_unix_nano), (4, 9, 10));
    let mut f = Family::new("h_seconds", MetricKind::Histogram, "h");
    f.histogram(&[("function", "f")], Some(&buckets_of(&[0.25, 0.5])));
    let m = metric(&f, when, &mut Starts::default()).unwrap();
    assert!(matches!(m.data, Some(Data::ExponentialHistogram(_))), "{:?}", m.data);
}
