//! Table cells of the summaries several sections share: durations and lock timings.

use crate::format::{format_count, format_duration_ns, format_percent};
use crate::meta::Meta;
use crate::percentiles::percentile_label;
use crate::stats::{DurationStats, LockTiming};

impl DurationStats {
    /// Header cells `"<prefix> Avg"`, `"<prefix> P50"`, ... in configured order.
    /// None under Callgrind, where there are no durations to show.
    pub(crate) fn header(prefix: &str, meta: &Meta) -> Vec<String> {
        if meta.untimed() {
            return Vec::new();
        }
        let join = |s: &str| if prefix.is_empty() { s.to_string() } else { format!("{prefix} {s}") };
        let mut cells = vec![join("Avg")];
        cells.extend(meta.percentiles.iter().map(|p| join(&percentile_label(*p).to_uppercase())));
        cells
    }

    /// Cells matching [`header`](Self::header); `-` where nothing was recorded.
    pub(crate) fn cells(&self, meta: &Meta) -> Vec<String> {
        if meta.untimed() {
            return Vec::new();
        }
        let dash = || "-".to_string();
        // Under the overhead budget, estimates are marked `≈`, Avg with the relative
        // half width of its total's 95% interval (the count is exact or nearly).
        let approx = |text: String| if self.estimate.is_some() { format!("≈{text}") } else { text };
        let avg = match &self.estimate {
            _ if self.count == 0 => dash(),
            Some(e) => format!(
                "≈{} ±{:.1}%",
                format_duration_ns(self.avg_ns),
                crate::Estimate::relative_half_width(self.total_ns, e.total_ns_ci95) * 100.0
            ),
            None => format_duration_ns(self.avg_ns),
        };
        let mut cells = vec![avg];
        cells.extend(meta.percentiles.iter().map(|p| match self.percentiles_ns.get(*p) {
            Some(v) if self.count > 0 => approx(format_duration_ns(v)),
            _ => dash(),
        }));
        cells
    }

    /// The note under a table with estimated durations, when any is.
    pub(crate) fn estimate_note<'a>(mut stats: impl Iterator<Item = &'a DurationStats>) -> &'static str {
        if stats.any(|s| s.estimate.is_some()) {
            "≈: estimated from the timed operations under the overhead budget; ± is the 95% interval\n"
        } else {
            ""
        }
    }
}

impl DurationStats {
    /// `Total`, but none under Callgrind.
    pub(crate) fn total_header(meta: &Meta) -> Vec<String> {
        if meta.untimed() {
            Vec::new()
        } else {
            vec!["Total".into()]
        }
    }

    /// The cell under [`total_header`](Self::total_header).
    pub(crate) fn total_cell(&self, meta: &Meta) -> Vec<String> {
        if meta.untimed() {
            Vec::new()
        } else {
            vec![match &self.estimate {
                Some(e) => format!(
                    "≈{} ±{:.1}%",
                    format_duration_ns(self.total_ns),
                    crate::Estimate::relative_half_width(self.total_ns, e.total_ns_ci95) * 100.0
                ),
                None => format_duration_ns(self.total_ns),
            }]
        }
    }
}

impl LockTiming {
    pub(crate) fn header(first: &str, meta: &Meta) -> Vec<String> {
        let mut header: Vec<String> = [first, "Kind", "Inst", "Acquired", "Contended"].map(String::from).to_vec();
        header.extend(DurationStats::header("Wait", meta));
        header.extend(DurationStats::header("Hold", meta));
        header
    }

    pub(crate) fn cells(&self, name: &str, kind: &str, instances: u64, meta: &Meta) -> Vec<String> {
        let contended = if self.acquisitions == 0 {
            "-".to_string()
        } else {
            format!("{} ({})", format_count(self.contended), format_percent(self.contended, self.acquisitions))
        };
        let mut cells = vec![
            name.to_string(),
            kind.to_string(),
            format_count(instances),
            format_count(self.acquisitions),
            contended,
        ];
        cells.extend(self.wait.cells(meta));
        cells.extend(self.hold.cells(meta));
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Under the overhead budget a summary's Avg, percentiles and Total are marked `≈`,
    /// Avg and Total with the relative half width of the total's interval.
    #[test]
    fn estimated_durations_are_marked() {
        let meta = Meta { percentiles: vec![50.0], ..Meta::default() };
        let mut stats = DurationStats { count: 10, total_ns: 1_000, avg_ns: 100, ..DurationStats::default() };
        stats.percentiles_ns = crate::Percentiles(vec![(50.0, 90)]);
        assert_eq!(stats.cells(&meta), ["100 ns", "90 ns"]);
        assert_eq!(DurationStats::estimate_note([&stats].into_iter()), "");
        stats.estimate = Some(Box::new(crate::DurationEstimate { total_ns_ci95: [900, 1_100], ..Default::default() }));
        assert_eq!(stats.cells(&meta), ["≈100 ns ±10.0%", "≈90 ns"]);
        assert_eq!(stats.total_cell(&meta), ["≈1.00 µs ±10.0%"]);
        assert!(DurationStats::estimate_note([&stats].into_iter()).starts_with("≈: estimated"));
    }
}
