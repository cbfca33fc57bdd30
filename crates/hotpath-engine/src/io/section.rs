//! Builds the `io` section from merged per-entry totals.

use hotpath_model::{percentile_label, DurationEstimate, IoControl, IoRow, IoSection, IoTransfer, Percentiles};

use super::cell::{ControlTotals, IoTotals, TransferTotals};
use super::sampling;
use super::site::{registered, IoEntry};
use crate::clock::to_ns;
use crate::entries::{short_type_name, Entry};
use crate::options::Options;
use crate::record::weighted::{percentile_ci95, sum_ci95};
use crate::sampling::Sampled;

/// Rows for every entry with activity, sorted by total operation time (then bytes),
/// filtered by focus and cut to the limit. `None` when no `io!` value was used.
pub(crate) fn section(totals: &[IoTotals], ratio: f64, config: &Options) -> Option<IoSection> {
    let entries = registered();
    let mut rows: Vec<IoRow> = totals
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.is_empty())
        .filter_map(|(id, t)| entries.get(id).map(|e| row(e, t, ratio, config, sampling::highest_shift(id))))
        .collect();
    if rows.is_empty() {
        return None;
    }
    disambiguate(&mut rows);
    rows.sort_by(|a, b| {
        let time = |r: &IoRow| r.read.estimated_total_ns().unwrap_or(0) + r.write.estimated_total_ns().unwrap_or(0);
        time(b)
            .cmp(&time(a))
            .then_with(|| (b.read.bytes + b.write.bytes).cmp(&(a.read.bytes + a.write.bytes)))
            .then_with(|| a.name.cmp(&b.name))
    });
    let mut section = IoSection::default();
    section.total_entries = rows.len();
    section.time_sampling_rate = sampling::rate();
    if let Some(focus) = &config.focus {
        rows.retain(|r| focus.matches(&r.name));
    }
    if config.limit > 0 {
        rows.truncate(config.limit);
    }
    section.rows = rows;
    Some(section)
}

/// Any time the clock ratio is needed: something was timed.
pub(crate) fn timed(totals: &[IoTotals]) -> bool {
    totals.iter().any(|t| t.timed_ops() > 0)
}

fn row(entry: &Entry<IoEntry>, t: &IoTotals, ratio: f64, config: &Options, shift: u32) -> IoRow {
    let mut row = IoRow::default();
    row.name = entry.name().to_string();
    row.label = entry.label().map(str::to_string);
    row.file = entry.file().to_string();
    row.line = entry.line();
    row.type_name = entry.type_name().to_string();
    row.iter = entry.iter();
    row.instances = t.instances;
    row.read = transfer(&t.read, ratio, config, shift);
    row.write = transfer(&t.write, ratio, config, shift);
    row.flush = control(&t.flush, ratio);
    row.shutdown = control(&t.shutdown, ratio);
    row
}

/// One direction's figures; `shift`: the entry's lowest rate `2^-shift` this session.
fn transfer(t: &TransferTotals, ratio: f64, config: &Options, shift: u32) -> IoTransfer {
    let ns = |ticks| to_ns(ticks, ratio);
    let (min, max) = if t.timed_ops == 0 { (0, 0) } else { (t.min, t.max) };
    let mut out = IoTransfer::default();
    out.ops = t.ops;
    out.bytes = t.bytes;
    out.errors = t.errors;
    out.timed_ops = t.timed_ops;
    out.timed_bytes = t.timed_bytes;
    out.timed_ns = ns(t.timed_ticks);
    // Under the budget every figure but the timed ones' own is weighted (`io/cell.rs`).
    let weighted = (t.timed_ticks + t.extra_ticks, t.timed_ops + t.extra_ops);
    out.avg_ns = weighted.0.checked_div(weighted.1).map_or(0, ns);
    out.min_ns = ns(min);
    out.max_ns = ns(max);
    if t.timed_ops > 0 {
        // Bucket midpoints are clamped into the observed range, so p0 and p100 are exact.
        out.percentiles_ns = Percentiles(
            config.percentiles.iter().map(|&p| (p, ns(t.histogram.percentile(p).clamp(min, max)))).collect(),
        );
        // Durations below one nanosecond still count as one, so the rate stays finite.
        let secs = out.timed_ns.max(1) as f64 / 1e9;
        out.bytes_per_sec = Some((t.timed_bytes as f64 / secs).round() as u64);
        out.buckets = crate::record::buckets(&t.histogram, weighted.0, ratio, config);
        // A static `io` rate wins over the budget: its figures are the timed mean's.
        let budgeted = config.overhead_budget.is_some() && config.time_sampling[Sampled::Io as usize] >= 1.0;
        if budgeted && t.timed_ops < t.ops {
            let at = |p: f64| ns(t.histogram.percentile(p).clamp(min, max));
            out.estimate = Some(Box::new(estimate(t, (ratio, shift), config, at)));
            out.total_ns = (t.extra_ops > 0).then(|| ns(weighted.0));
        }
    }
    out
}

/// The rate and intervals of a transfer's figures under the budget. Each timed
/// operation stands for `2^k` (Horvitz–Thompson, `record/weighted.rs`): the total is
/// the weighted sum, of variance `Σ (2^k - 1)·2^k·d²`. (The timed operations' mean
/// times all of them, the estimator before this one, is biased when the rates change
/// during the run and its interval ignored that: it held the truth in 14 of 20 runs.)
fn estimate(
    t: &TransferTotals,
    (ratio, shift): (f64, u32),
    config: &Options,
    at: impl Fn(f64) -> u64,
) -> DurationEstimate {
    let (n, all) = (t.timed_ops as f64, t.ops as f64);
    let (total, var) = (t.timed_ticks + t.extra_ticks, t.var);
    let mut e = DurationEstimate::default();
    e.rate = n / all;
    e.min_rate = 1.0 / f64::from(1u32 << shift.min(31));
    e.total_ns_ci95 = sum_ci95(to_ns(total, ratio), var, t.max, shift, ratio);
    e.percentiles_ns_ci95 =
        config.percentiles.iter().map(|&p| (percentile_label(p), percentile_ci95(p, t.timed_ops, &at))).collect();
    // Tests only: the untimed operations' shadow plus the timed ones' own time.
    e.shadow_total_ns =
        (config.budget_shadow && t.shadow_ticks > 0).then(|| to_ns(t.shadow_ticks + t.timed_ticks, ratio));
    e
}

fn control(t: &ControlTotals, ratio: f64) -> IoControl {
    let mut out = IoControl::default();
    out.ops = t.ops;
    out.errors = t.errors;
    out.timed_ops = t.timed_ops;
    out.timed_ns = to_ns(t.timed_ticks, ratio);
    out
}

/// Rows of one name but different wrapped types (a generic function's `io!`) get the
/// type's short name appended; rows still alike (one label at two sites) get `file:line`.
fn disambiguate(rows: &mut [IoRow]) {
    let clashes = |rows: &[IoRow], i: usize| rows.iter().enumerate().any(|(j, r)| j != i && r.name == rows[i].name);
    let typed: Vec<bool> = (0..rows.len())
        .map(|i| rows.iter().any(|r| r.name == rows[i].name && r.type_name != rows[i].type_name))
        .collect();
    for (row, typed) in rows.iter_mut().zip(&typed) {
        if *typed {
            row.name = format!("{} <{}>", row.name, short_type_name(&row.type_name));
        }
    }
    let located: Vec<bool> = (0..rows.len()).map(|i| clashes(rows, i)).collect();
    for (row, located) in rows.iter_mut().zip(located) {
        if located {
            row.name = format!("{} @ {}:{}", row.name, row.file, row.line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str, type_name: &str, line: u32) -> IoRow {
        let mut row = IoRow::default();
        row.name = name.into();
        row.type_name = type_name.into();
        row.file = "a.rs".into();
        row.line = line;
        row
    }

    #[test]
    fn clashing_names_are_told_apart() {
        let mut rows = vec![
            named("w", "std::fs::File", 1),
            named("w", "alloc::vec::Vec<u8>", 1),
            named("x", "std::fs::File", 2),
            named("x", "std::fs::File", 3),
            named("y", "std::fs::File", 4),
        ];
        disambiguate(&mut rows);
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["w <File>", "w <Vec<u8>>", "x @ a.rs:2", "x @ a.rs:3", "y"]);
    }
}
