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
        let mut cells = vec![if self.count == 0 { dash() } else { format_duration_ns(self.avg_ns) }];
        cells.extend(meta.percentiles.iter().map(|p| match self.percentiles_ns.get(*p) {
            Some(v) if self.count > 0 => format_duration_ns(v),
            _ => dash(),
        }));
        cells
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
            vec![format_duration_ns(self.total_ns)]
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
