//! Duration buckets in the two forms a metrics backend aggregates across processes:
//! cumulative counts at fixed bounds (Prometheus classic histograms, OTLP explicit
//! buckets) and sparse exponential buckets at one fixed schema (Prometheus native
//! histograms, OTLP exponential histograms). Sections carry them only in live
//! snapshots (they are not part of the JSON report): the report has percentiles, a
//! scraper wants buckets that add up across scrapes.

/// Upper bounds of the buckets: decades from 100 ns to 10 s.
pub const BUCKET_BOUNDS_NS: [u64; 9] =
    [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000];

/// Resolution of [`Buckets::exponential`]: bucket `i` holds durations in seconds in
/// `(2^((i-1)/2^8), 2^(i/2^8)]`, a ratio of 2^(1/256) ≈ 1.0027 between its bounds.
/// This is Prometheus's native-histogram schema 8 and OTLP's exponential scale 8 (the
/// same bucket boundaries; OTLP's `offset` is the first index minus one). The
/// recorder's histogram has 64 linear buckets per octave; each of its buckets is
/// counted at its midpoint, so a quantile read from these buckets is within 0.79%
/// (the recorder's bucket) + 0.27% (this one) ≈ 1.1% of the recorded value.
pub const EXPONENTIAL_SCHEMA: i32 = 8;

/// Durations counted at [`BUCKET_BOUNDS_NS`] and at [`EXPONENTIAL_SCHEMA`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Buckets {
    /// `cumulative[i]`: durations of at most `BUCKET_BOUNDS_NS[i]`.
    pub cumulative: Vec<u64>,
    /// Durations in all (the `+Inf` bucket).
    pub count: u64,
    /// Their sum, in nanoseconds.
    pub sum_ns: u64,
    /// Durations of zero (an uncontended lock's wait): the exponential form's zero
    /// bucket, whose threshold is 0.
    pub zero_count: u64,
    /// Non-empty exponential buckets as `(index, count)`, ascending by index, counts
    /// not cumulative (see [`EXPONENTIAL_SCHEMA`]). With `zero_count` they add up to
    /// `count`.
    pub exponential: Vec<(i32, u64)>,
}

impl Buckets {
    /// Buckets from cumulative counts at [`BUCKET_BOUNDS_NS`], the total count and sum;
    /// no exponential buckets (see [`with_exponential`](Self::with_exponential)).
    pub fn new(cumulative: Vec<u64>, count: u64, sum_ns: u64) -> Self {
        Self { cumulative, count, sum_ns, zero_count: 0, exponential: Vec::new() }
    }

    /// The same durations in exponential buckets: `zero_count` durations of zero and
    /// sparse `(index, count)` buckets at [`EXPONENTIAL_SCHEMA`], ascending.
    pub fn with_exponential(mut self, zero_count: u64, exponential: Vec<(i32, u64)>) -> Self {
        self.zero_count = zero_count;
        self.exponential = exponential;
        self
    }
}

/// The exponential bucket (at [`EXPONENTIAL_SCHEMA`]) holding `seconds` (> 0): the
/// least `i` with `seconds <= 2^(i / 2^schema)`.
pub fn exponential_index(seconds: f64) -> i32 {
    let scaled = seconds.log2() * f64::from(1u32 << EXPONENTIAL_SCHEMA);
    let mut i = scaled.ceil() as i32;
    // log2 rounds: settle the boundary exactly against the bucket's own bounds.
    if seconds > exponential_upper(i) {
        i += 1;
    } else if seconds <= exponential_upper(i - 1) {
        i -= 1;
    }
    i
}

/// Upper bound, in seconds, of exponential bucket `i`.
pub fn exponential_upper(i: i32) -> f64 {
    (f64::from(i) / f64::from(1u32 << EXPONENTIAL_SCHEMA)).exp2()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_lies_in_its_bucket() {
        for seconds in [1e-9, 3.3e-7, 1e-3, 0.5, 1.0, 2.0, 7.25, 1e4] {
            let i = exponential_index(seconds);
            assert!(exponential_upper(i - 1) < seconds && seconds <= exponential_upper(i), "{seconds} in {i}");
        }
        assert_eq!(exponential_index(1.0), 0);
        assert_eq!(exponential_index(2.0), 256);
        assert_eq!(exponential_index(0.5), -256);
    }
}
