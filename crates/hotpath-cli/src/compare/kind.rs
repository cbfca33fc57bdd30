//! What a metric measures, which decides how it is compared and printed.
//!
//! Sections compared generically have no code here: their fields are classified by
//! name, following the report schema's conventions (durations end in `_ns`, byte
//! amounts mention `bytes`, every other integer is a count).

use serde::Serialize;

/// The kind of a compared value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Kind {
    /// Nanoseconds. Noisy: compared statistically; higher is worse.
    Duration,
    /// Amounts per second (throughput). Noisy; higher is better.
    Rate,
    /// Any other fractional value (shares, ratios). Noisy; higher is worse.
    Level,
    /// Bytes (allocated, transferred). Exact; higher is worse.
    Bytes,
    /// Event counts (calls, allocations, polls, errors). Exact; higher is worse.
    Count,
}

impl Kind {
    /// True for values that vary from run to run and need a statistical test.
    pub(crate) fn is_statistical(self) -> bool {
        matches!(self, Self::Duration | Self::Rate | Self::Level)
    }

    /// True when a larger head value is a regression.
    pub(crate) fn higher_is_worse(self) -> bool {
        !matches!(self, Self::Rate)
    }

    /// The value as a person reads it.
    pub(crate) fn format(self, value: f64) -> String {
        match self {
            Self::Duration => hotpath_model::format_duration_ns(value.round() as u64),
            Self::Bytes => hotpath_model::format_bytes(value.round() as u64),
            Self::Count if value.fract() == 0.0 => hotpath_model::format_count(value as u64),
            Self::Count | Self::Rate | Self::Level => format!("{value:.2}"),
        }
    }
}

/// Classifies a numeric field of a generically compared row; `None` for fields that
/// identify rather than measure (source lines, ids). `parent` is the enclosing
/// object's field for nested values such as `percentiles_ns.p50`.
pub(crate) fn classify(field: &str, parent: Option<&str>, is_integer: bool) -> Option<Kind> {
    if is_identity(field) || parent.is_some_and(is_identity) {
        return None;
    }
    by_name(field).or_else(|| parent.and_then(by_name)).or(Some(if is_integer { Kind::Count } else { Kind::Level }))
}

fn is_identity(field: &str) -> bool {
    const IDENTITY: [&str; 7] = ["line", "column", "pid", "tid", "id", "port", "thread_id"];
    IDENTITY.contains(&field) || field.ends_with("_id") || field.starts_with("is_")
}

/// Matches whole words of the snake_case name, so that `generated` is no rate.
fn by_name(field: &str) -> Option<Kind> {
    let words: Vec<&str> = field.split('_').collect();
    let has = |w: &str| words.contains(&w);
    let per_second = words.windows(2).any(|p| p[0] == "per" && matches!(p[1], "s" | "sec" | "second"));
    if words.last() == Some(&"ns") {
        Some(Kind::Duration)
    } else if per_second || has("rate") || has("throughput") {
        // Before bytes: `read_bytes_per_s` is a throughput.
        Some(Kind::Rate)
    } else if has("bytes") {
        Some(Kind::Bytes)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_by_schema_conventions() {
        assert_eq!(classify("avg_ns", None, true), Some(Kind::Duration));
        assert_eq!(classify("p99.9", Some("percentiles_ns"), true), Some(Kind::Duration));
        assert_eq!(classify("alloc_bytes", None, true), Some(Kind::Bytes));
        assert_eq!(classify("bytes_read", None, true), Some(Kind::Bytes));
        assert_eq!(classify("p50", Some("percentiles_bytes"), true), Some(Kind::Bytes));
        assert_eq!(classify("alloc_count", None, true), Some(Kind::Count));
        assert_eq!(classify("calls", None, true), Some(Kind::Count));
        assert_eq!(classify("read_bytes_per_s", None, false), Some(Kind::Rate));
        assert_eq!(classify("cpu_percent", None, false), Some(Kind::Level));
        assert_eq!(classify("generated", None, true), Some(Kind::Count));
        assert_eq!(classify("send_rate", None, false), Some(Kind::Rate));
        assert_eq!(classify("line", None, true), None);
        assert_eq!(classify("thread_id", None, true), None);
        assert_eq!(classify("p50", Some("line"), true), None);
    }

    #[test]
    fn directions_and_formats() {
        assert!(Kind::Duration.higher_is_worse() && Kind::Bytes.higher_is_worse());
        assert!(!Kind::Rate.higher_is_worse());
        assert!(Kind::Duration.is_statistical() && !Kind::Bytes.is_statistical() && !Kind::Count.is_statistical());
        assert_eq!(Kind::Duration.format(1_500_000.0), "1.50 ms");
        assert_eq!(Kind::Bytes.format(2048.0), "2.0 KB");
        assert_eq!(Kind::Count.format(1234.0), "1,234");
        assert_eq!(Kind::Count.format(2.5), "2.50");
    }
}
