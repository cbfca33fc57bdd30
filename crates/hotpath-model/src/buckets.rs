//! Cumulative duration buckets at fixed bounds, the form Prometheus histograms take.
//! Sections carry them only in live snapshots (they are not part of the JSON report):
//! the report has percentiles, a scraper wants buckets that add up across scrapes.

/// Upper bounds of the buckets: decades from 100 ns to 10 s.
pub const BUCKET_BOUNDS_NS: [u64; 9] =
    [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000];

/// Durations counted at [`BUCKET_BOUNDS_NS`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Buckets {
    /// `cumulative[i]`: durations of at most `BUCKET_BOUNDS_NS[i]`.
    pub cumulative: Vec<u64>,
    /// Durations in all (the `+Inf` bucket).
    pub count: u64,
    /// Their sum, in nanoseconds.
    pub sum_ns: u64,
}

impl Buckets {
    /// Buckets from cumulative counts at [`BUCKET_BOUNDS_NS`], the total count and sum.
    pub fn new(cumulative: Vec<u64>, count: u64, sum_ns: u64) -> Self {
        Self { cumulative, count, sum_ns }
    }
}
