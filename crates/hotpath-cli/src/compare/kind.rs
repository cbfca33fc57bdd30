//! What a compared value is, derived from its unit (`hotpath_model::Unit`, the one
//! classifier of report fields): which direction is worse, and how it is shown.
//! Whether it is compared exactly, tested or only shown is the model's
//! `Unit::judging`, from the unit and the field's path.

use hotpath_model::Unit;
use serde::Serialize;

/// The kind of a compared value, as `--format json` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Kind {
    /// Nanoseconds or milliseconds. Noisy: compared statistically; higher is worse.
    Duration,
    /// Amounts per second (throughput). Noisy; higher is better.
    Rate,
    /// Percentages and other fractional values (shares, ratios). Noisy; higher is worse.
    Level,
    /// Bytes (allocated, transferred). Higher is worse.
    Bytes,
    /// Event counts (calls, allocations, polls, errors). Higher is worse.
    Count,
    /// Instructions executed (Callgrind `Ir`). Exact and deterministic, with a
    /// threshold of their own (`--icount-threshold`); higher is worse.
    Instructions,
}

impl Kind {
    pub(crate) fn of(unit: Unit) -> Self {
        match unit {
            Unit::Nanoseconds | Unit::Milliseconds => Self::Duration,
            Unit::PerSecond | Unit::BytesPerSecond => Self::Rate,
            Unit::Bytes => Self::Bytes,
            Unit::Count => Self::Count,
            Unit::Instructions => Self::Instructions,
            // Percent, Ratio, and any unit added later: a noisy level.
            _ => Self::Level,
        }
    }

    /// True for kinds that are always statistical, whatever their path (durations,
    /// rates, levels); counts and bytes depend on `Unit::judging`.
    pub(crate) fn is_statistical(self) -> bool {
        matches!(self, Self::Duration | Self::Rate | Self::Level)
    }

    /// True when a larger head value is a regression.
    pub(crate) fn higher_is_worse(self) -> bool {
        !matches!(self, Self::Rate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_units() {
        assert_eq!(Kind::of(Unit::Nanoseconds), Kind::Duration);
        assert_eq!(Kind::of(Unit::BytesPerSecond), Kind::Rate);
        assert_eq!(Kind::of(Unit::Percent), Kind::Level);
        assert_eq!(Kind::of(Unit::Ratio), Kind::Level);
        assert_eq!(Kind::of(Unit::Bytes), Kind::Bytes);
        assert_eq!(Kind::of(Unit::Instructions), Kind::Instructions);
        assert!(!Kind::Instructions.is_statistical() && Kind::Instructions.higher_is_worse());
        assert!(Kind::Duration.higher_is_worse() && Kind::Bytes.higher_is_worse());
        assert!(!Kind::Rate.higher_is_worse());
        assert!(Kind::Duration.is_statistical() && !Kind::Bytes.is_statistical() && !Kind::Count.is_statistical());
    }
}
