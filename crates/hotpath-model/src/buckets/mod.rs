//! Duration buckets in the two forms a metrics backend aggregates across processes:
//! cumulative counts at fixed bounds (Prometheus classic histograms, OTLP explicit
//! buckets) and sparse exponential buckets at one fixed schema (Prometheus native
//! histograms, OTLP exponential histograms). Sections carry them only in live
//! snapshots (they are not part of the JSON report): the report has percentiles, a
//! scraper wants buckets that add up across scrapes.

mod exp2_table;

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
/// least `i` with `seconds <= exponential_upper(i)`. With `seconds = m * 2^e`, `m` in
/// `[1, 2)`, that is `256 e + j` for the least `j` with `m <= 2^(j/256)`: a search of
/// the 256 mantissas, exact, with no logarithm. Not positive and finite: 0 for NaN and
/// values of at most 0, `i32::MAX - 1` for infinity (what the logarithm gave).
pub fn exponential_index(seconds: f64) -> i32 {
    let bits = seconds.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if seconds.is_nan() || seconds <= 0.0 {
        return 0;
    }
    if biased == 0x7ff {
        return i32::MAX - 1;
    }
    if biased == 0 {
        // Subnormal: 2^64 times larger is normal, and exact.
        return exponential_index(seconds * power_of_two(64)) - 64 * PER_OCTAVE;
    }
    let mantissa = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    let j = exp2_table::EXP2_FRACTIONS.partition_point(|&t| f64::from_bits(t) < mantissa);
    (biased - 1023) * PER_OCTAVE + j as i32
}

/// Upper bound, in seconds, of exponential bucket `i`: `2^(i/256)`, the value glibc's
/// `exp2` gives, from its table of mantissas scaled by a power of two (exact in the
/// normal range; a subnormal bound is rounded once).
pub fn exponential_upper(i: i32) -> f64 {
    let fraction = f64::from_bits(exp2_table::EXP2_FRACTIONS[i.rem_euclid(PER_OCTAVE) as usize]);
    fraction * power_of_two(i.div_euclid(PER_OCTAVE))
}

/// Exponential buckets per octave.
const PER_OCTAVE: i32 = 1 << EXPONENTIAL_SCHEMA;

/// `2^n`, exactly: 0 below the least subnormal, infinity above the largest double.
fn power_of_two(n: i32) -> f64 {
    match n {
        -1022..=1023 => f64::from_bits(((n + 1023) as u64) << 52),
        -1074..=-1023 => f64::from_bits(1 << (n + 1074)),
        ..=-1075 => 0.0,
        _ => f64::INFINITY,
    }
}

#[cfg(test)]
mod tests;
