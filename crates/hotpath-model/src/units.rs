//! What a numeric report field measures, and how a value in that unit reads. Typed
//! rows declare their units ([`crate::RowMetrics`]); [`Unit::of_field`] reads a unit
//! from a field's name alone, one classifier for every reader of JSON it has no type
//! for (`hotpath compare` and the console on sections of another build), so that they
//! agree on what `busy_percent` or `percentiles_ns.p99` is. The naming conventions it relies on are those of
//! `docs/JSON_SCHEMA.md`: snake_case words, the unit as a word of the name.

use crate::format::{format_bytes, format_count, format_duration_ns};

/// The unit of a numeric field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unit {
    /// A duration in nanoseconds (`avg_ns`, `percentiles_ns.p50`).
    Nanoseconds,
    /// A duration in milliseconds (`interval_ms`).
    Milliseconds,
    /// An amount of memory or data (`alloc_bytes`, `percentiles_bytes.p50`).
    Bytes,
    /// A number of events or things (`calls`, `polls`, `queue_len`).
    Count,
    /// Events per second (`items_per_sec`, `send_rate`).
    PerSecond,
    /// Bytes per second (`bytes_per_sec`).
    BytesPerSecond,
    /// A percentage, 0 to 100 or more (`cpu_percent`, `busy_pct`).
    Percent,
    /// Any other fractional value: a share, a ratio or a level (`time_sampling_rate`).
    Ratio,
    /// Instructions executed, Callgrind's `Ir` event (`ir`, `self_ir`, `ir_per_call`):
    /// exact and deterministic, unlike durations.
    Instructions,
}

/// How `hotpath compare` judges a value, decided here beside its unit so that every
/// reader agrees on which figures are deterministic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Judging {
    /// The same for every run of a deterministic program (calls, allocations of
    /// deterministic code, instructions): compared exactly, from one run per side,
    /// as long as each side's runs agree.
    Exact,
    /// Varies from run to run (durations, rates, shares, and counts that depend on
    /// thread scheduling such as contention, blocked sends, polls, queue levels):
    /// only a statistical test over several runs per side can call it a regression.
    Statistical,
    /// Shown, never judged: extremes of single operations (`min_ns`, `max_ns`,
    /// `allocs_max`, `max_queue_len`), configuration (`capacity`) and figures of
    /// sampled subsets (`timed_ops`).
    Informational,
}

/// Words of a field path that make a count depend on thread scheduling or timing.
const SCHEDULED: [&str; 16] = [
    "contended",
    "blocked",
    "wait",
    "polls",
    "wakeups",
    "woken",
    "queue",
    "len",
    "busy",
    "idle",
    "cancelled",
    "errors",
    "ops",
    "active",
    "cpu",
    "samples",
];

/// Leaf names of counts and bytes that a deterministic program repeats exactly.
/// (`count` alone is not one: `lock.hold.count`, `latency.count` count the timed
/// samples of a distribution, which timing decides.)
const DETERMINISTIC: [&str; 11] =
    ["calls", "acquisitions", "sent", "received", "items", "instances", "closed", "completed", "bytes", "total", "avg"];

/// Words that mark a figure as an extreme, a setting or a sampled subset.
/// (`derefs`: how often code reached a wrapper's inner value, a hint, never a regression.)
const INFORMATIONAL: [&str; 7] = ["min", "max", "peak", "capacity", "timed", "p100", "derefs"];

/// Fields that identify or locate something rather than measure it.
const IDENTITY: [&str; 8] = ["line", "column", "pid", "tid", "id", "port", "thread_id", "index"];

impl Unit {
    /// A guess from the name alone, for readers holding JSON without its type: a
    /// section the model has no type for, such as one of another build's report. A
    /// reader of a typed section takes units from its rows' [`crate::RowMetrics`].
    ///
    /// The unit of field `field`, nested in the object field `parent` if any
    /// (`p99` in `percentiles_ns`); `integer` says whether the value is a whole number.
    /// `None` for fields that identify rather than measure (source lines, ids, flags,
    /// timestamps). The field's own name decides first, then its parent's; a name that
    /// says nothing is a [`Unit::Count`] when integer, else a [`Unit::Ratio`].
    pub fn of_field(field: &str, parent: Option<&str>, integer: bool) -> Option<Unit> {
        if is_identity(field) || parent.is_some_and(is_identity) {
            return None;
        }
        by_name(field).or_else(|| parent.and_then(by_name)).or(Some(if integer { Unit::Count } else { Unit::Ratio }))
    }

    /// How `hotpath compare` judges a value of this unit at dotted path `path` in a
    /// report row (`calls`, `lock.contended`, `percentiles_ns.p99`, `bytes_max`).
    /// Instructions are exact; durations, rates and levels statistical; counts and
    /// bytes exact only when every word of the path names a deterministic figure
    /// (allocations, calls, items sent); extremes of single operations are never judged.
    pub fn judging(self, path: &str) -> Judging {
        let words: Vec<&str> = path.split(['.', '_']).collect();
        let has = |list: &[&str]| words.iter().any(|w| list.contains(w));
        if has(&INFORMATIONAL) {
            return Judging::Informational;
        }
        match self {
            Unit::Instructions => Judging::Exact,
            Unit::Count | Unit::Bytes => {
                let leaf = path.rsplit('.').next().unwrap_or(path);
                let leaf_words: Vec<&str> = leaf.split('_').collect();
                let alloc = words.iter().any(|w| w.starts_with("alloc"));
                // `bytes_percentiles.p50` and `allocs_total`: per-call allocation figures.
                let per_call_alloc = alloc
                    || (words.first() == Some(&"bytes") && !path.contains('.'))
                    || path.starts_with("bytes_percentiles.");
                let deterministic = per_call_alloc || leaf_words.iter().all(|w| DETERMINISTIC.contains(w));
                if has(&SCHEDULED) || !deterministic {
                    Judging::Statistical
                } else {
                    Judging::Exact
                }
            }
            _ => Judging::Statistical,
        }
    }

    /// The value as a person reads it: `1.50 ms`, `2.0 KB`, `1,234`, `16.31 M/s`,
    /// `1.2 GB/s`, `98.2%`, `0.25`.
    pub fn format(self, value: f64) -> String {
        if !value.is_finite() {
            return value.to_string();
        }
        if value < 0.0 && !matches!(self, Unit::Percent | Unit::Ratio) {
            return format!("-{}", self.format(-value));
        }
        match self {
            Unit::Nanoseconds => format_duration_ns(value.round() as u64),
            Unit::Milliseconds => format_duration_ns((value * 1e6).round() as u64),
            Unit::Bytes => format_bytes(value.round() as u64),
            Unit::Count if value.fract() == 0.0 => format_count(value as u64),
            Unit::Count | Unit::Ratio => format!("{value:.2}"),
            Unit::PerSecond => format_per_second(value),
            Unit::BytesPerSecond => format!("{}/s", format_bytes(value.round() as u64)),
            Unit::Percent => format!("{value:.1}%"),
            Unit::Instructions => format!("{} Ir", format_count(value.round() as u64)),
        }
    }

    /// A short lowercase name for machine-readable output: `ns`, `ms`, `bytes`,
    /// `count`, `per_second`, `bytes_per_second`, `percent`, `ratio`.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Nanoseconds => "ns",
            Unit::Milliseconds => "ms",
            Unit::Bytes => "bytes",
            Unit::Count => "count",
            Unit::PerSecond => "per_second",
            Unit::BytesPerSecond => "bytes_per_second",
            Unit::Percent => "percent",
            Unit::Ratio => "ratio",
            Unit::Instructions => "instructions",
        }
    }
}

/// `12.5/s`, `94.08 k/s`, `16.31 M/s`, `1.20 G/s`: decimal multiples, as rates are counted.
fn format_per_second(value: f64) -> String {
    const SCALES: [(f64, &str); 3] = [(1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (scale, prefix) in SCALES {
        if value >= scale {
            return format!("{:.2} {prefix}/s", value / scale);
        }
    }
    format!("{value:.1}/s")
}

fn is_identity(field: &str) -> bool {
    let words: Vec<&str> = field.split('_').collect();
    IDENTITY.contains(&field)
        || field.ends_with("_id")
        || field.starts_with("is_")
        // Points in time (`started_unix_ms`, `at_ns`, `at_ms`) locate rather than measure.
        || words.contains(&"unix")
        || words.first() == Some(&"at")
}

/// The unit a name states, matching whole snake_case words so that `generated` is no rate.
fn by_name(field: &str) -> Option<Unit> {
    let words: Vec<&str> = field.split('_').collect();
    let has = |w: &str| words.contains(&w);
    let per_second = words.windows(2).any(|p| p[0] == "per" && matches!(p[1], "s" | "sec" | "second"));
    // A sampling rate is the fraction of operations sampled, not a throughput.
    let rate = (has("rate") && !has("sampling")) || has("throughput");
    if has("ir") || has("instructions") {
        // First: `ir_per_call` is an instruction count per call, not a rate.
        Some(Unit::Instructions)
    } else if per_second || rate {
        // Before bytes and durations: `read_bytes_per_s` is a throughput.
        Some(if has("bytes") { Unit::BytesPerSecond } else { Unit::PerSecond })
    } else if matches!(words.last(), Some(&"percent") | Some(&"pct")) {
        // Before bytes: `bytes_self_percent` is a share.
        Some(Unit::Percent)
    } else if has("ns") {
        // `unwind_ns_per_sample` too: nanoseconds, per whatever.
        Some(Unit::Nanoseconds)
    } else if has("ms") {
        Some(Unit::Milliseconds)
    } else if has("bytes") {
        Some(Unit::Bytes)
    } else if has("rate") {
        Some(Unit::Ratio)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_by_schema_conventions() {
        assert_eq!(Unit::of_field("avg_ns", None, true), Some(Unit::Nanoseconds));
        assert_eq!(Unit::of_field("p99.9", Some("percentiles_ns"), true), Some(Unit::Nanoseconds));
        assert_eq!(Unit::of_field("alloc_bytes", None, true), Some(Unit::Bytes));
        assert_eq!(Unit::of_field("bytes_read", None, true), Some(Unit::Bytes));
        assert_eq!(Unit::of_field("p50", Some("percentiles_bytes"), true), Some(Unit::Bytes));
        assert_eq!(Unit::of_field("alloc_count", None, true), Some(Unit::Count));
        assert_eq!(Unit::of_field("calls", None, true), Some(Unit::Count));
        assert_eq!(Unit::of_field("read_bytes_per_s", None, false), Some(Unit::BytesPerSecond));
        assert_eq!(Unit::of_field("bytes_per_sec", None, true), Some(Unit::BytesPerSecond));
        assert_eq!(Unit::of_field("items_per_sec", None, false), Some(Unit::PerSecond));
        assert_eq!(Unit::of_field("cpu_percent", None, false), Some(Unit::Percent));
        assert_eq!(Unit::of_field("busy_pct", None, false), Some(Unit::Percent));
        assert_eq!(Unit::of_field("bytes_self_percent", None, false), Some(Unit::Percent));
        assert_eq!(Unit::of_field("generated", None, true), Some(Unit::Count));
        assert_eq!(Unit::of_field("send_rate", None, false), Some(Unit::PerSecond));
        assert_eq!(Unit::of_field("time_sampling_rate", None, false), Some(Unit::Ratio));
        assert_eq!(Unit::of_field("share", None, false), Some(Unit::Ratio));
        assert_eq!(Unit::of_field("interval_ms", None, true), Some(Unit::Milliseconds));
        assert_eq!(Unit::of_field("unwind_ns_per_sample", None, true), Some(Unit::Nanoseconds));
        assert_eq!(Unit::of_field("avg_ns", Some("wait"), true), Some(Unit::Nanoseconds));
        assert_eq!(Unit::of_field("acquisitions", Some("lock"), true), Some(Unit::Count));
        assert_eq!(Unit::of_field("ir", None, true), Some(Unit::Instructions));
        assert_eq!(Unit::of_field("self_ir", None, true), Some(Unit::Instructions));
        assert_eq!(Unit::of_field("ir_per_call", None, true), Some(Unit::Instructions));
        assert_eq!(Unit::of_field("program_ir", None, true), Some(Unit::Instructions));
        assert_eq!(Unit::of_field("first", None, true), Some(Unit::Count));
    }

    #[test]
    fn only_deterministic_figures_are_exact() {
        let j = |unit: Unit, path: &str| unit.judging(path);
        for path in ["calls", "alloc_bytes", "alloc_count", "allocs_total", "bytes_total", "allocs_avg", "sent"] {
            assert_eq!(j(Unit::Count, path), Judging::Exact, "{path}");
        }
        assert_eq!(j(Unit::Bytes, "bytes_percentiles.p50"), Judging::Exact);
        assert_eq!(j(Unit::Count, "allocs_percentiles.p95"), Judging::Exact);
        assert_eq!(j(Unit::Bytes, "read.bytes"), Judging::Exact);
        assert_eq!(j(Unit::Count, "lock.acquisitions"), Judging::Exact);
        assert_eq!(j(Unit::Count, "latency.count"), Judging::Statistical);
        assert_eq!(j(Unit::Count, "lock.hold.count"), Judging::Statistical);
        assert_eq!(j(Unit::Instructions, "self_ir"), Judging::Exact);
        // Scheduling decides these: the false alarms.
        for path in ["lock.contended", "blocked.count", "polls", "queue_len", "lock.wait.count", "read.ops"] {
            assert_eq!(j(Unit::Count, path), Judging::Statistical, "{path}");
        }
        assert_eq!(j(Unit::Count, "generated"), Judging::Statistical, "unknown counts are not trusted as exact");
        assert_eq!(j(Unit::Nanoseconds, "avg_ns"), Judging::Statistical);
        assert_eq!(j(Unit::Percent, "cpu_percent"), Judging::Statistical);
        for path in [
            "read.min_ns",
            "max_ns",
            "allocs_max",
            "bytes_max",
            "max_queue_len",
            "capacity",
            "read.timed_ops",
            "derefs",
        ] {
            assert_eq!(j(Unit::Count, path), Judging::Informational, "{path}");
        }
    }

    #[test]
    fn identity_fields_have_no_unit() {
        for field in ["line", "thread_id", "tid", "pid", "index", "is_async", "started_unix_ms", "at_ns", "at_ms"] {
            assert_eq!(Unit::of_field(field, None, true), None, "{field}");
        }
        assert_eq!(Unit::of_field("p50", Some("line"), true), None);
    }

    #[test]
    fn formats_each_unit() {
        assert_eq!(Unit::Nanoseconds.format(1_500_000.0), "1.50 ms");
        assert_eq!(Unit::Milliseconds.format(250.0), "250.00 ms");
        assert_eq!(Unit::Bytes.format(2048.0), "2.0 KB");
        assert_eq!(Unit::Count.format(1234.0), "1,234");
        assert_eq!(Unit::Count.format(2.5), "2.50");
        assert_eq!(Unit::Count.format(-1234.0), "-1,234");
        assert_eq!(Unit::PerSecond.format(16_305_862.0), "16.31 M/s");
        assert_eq!(Unit::PerSecond.format(94_076.1), "94.08 k/s");
        assert_eq!(Unit::PerSecond.format(12.34), "12.3/s");
        assert_eq!(Unit::BytesPerSecond.format(1_288_490_189.0), "1.2 GB/s");
        assert_eq!(Unit::Percent.format(98.25), "98.2%");
        assert_eq!(Unit::Ratio.format(0.25), "0.25");
        assert_eq!(Unit::Ratio.format(f64::NAN), "NaN");
        assert_eq!(Unit::Instructions.format(1_234_567.0), "1,234,567 Ir");
    }
}
