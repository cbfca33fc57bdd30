//! `/metrics` in the Prometheus text exposition format (version 0.0.4), or in the
//! protobuf format with native histograms when the scraper asks for it (`negotiate`,
//! `protobuf`). Every section's families come from the typed model
//! (`SectionData::metrics`); this file adds the process-level families and writes the
//! text: label escaping, histogram buckets in seconds, one `# HELP`/`# TYPE` pair per
//! family. Both formats serve the same families, labels and carried counts.
//!
//! Every series starts with the process labels (`HOTPATH_METRICS_LABELS`), and
//! counters and histograms go on from where an earlier session of the process left
//! them (`carry`). Bucket bounds are one constant ([`BUCKET_BOUNDS_NS`]): the same in
//! every process and every run, so `sum by (le)` across a fleet is a valid histogram.
//!
//! Row limits do not apply here: a series must not vanish because another function
//! overtook it. The focus filter does apply. Series per row: a fixed 10 buckets per
//! histogram plus a few counters, so cardinality is bounded by measured sites.

use std::fmt::Write;

use hotpath_model::{Families, Family, MetricKind, Sample, BUCKET_BOUNDS_NS};

use super::snapshot::Snapshot;
use super::state::Stats;

mod carry;
mod escape;
mod negotiate;
mod proto;
mod protobuf;

pub(crate) use carry::Exposition;
use escape::escape;
pub(crate) use negotiate::{negotiate, Format};

/// The whole exposition, in `format`.
pub(crate) fn render(snapshot: &Snapshot, stats: &Stats, exposition: &Exposition, format: Format) -> Vec<u8> {
    let mut families = process(snapshot, stats);
    for (_, section) in snapshot.report.sections() {
        section.metrics(&mut families);
    }
    exposition.carry(snapshot.session, &mut families);
    let served = families.iter().filter(|f| !f.series.is_empty());
    match format {
        Format::Text => {
            let mut out = String::with_capacity(4096);
            for family in served {
                write_family(&mut out, family, &exposition.labels);
            }
            out.into_bytes()
        }
        Format::Protobuf => {
            let mut out = Vec::with_capacity(4096);
            for family in served {
                protobuf::write_family(&mut out, family, &exposition.pairs);
            }
            out
        }
    }
}

/// The snapshot's process families, and the live server's responses by class.
fn process(snapshot: &Snapshot, stats: &Stats) -> Families {
    let mut families = snapshot.process_families();
    let mut responses = Family::new(
        "hotpath_http_responses_total",
        MetricKind::Counter,
        "Responses of the live metrics server by status class.",
    );
    for (class, count) in stats.responses() {
        responses.value(&[("code", &format!("{class}xx"))], count as f64);
    }
    families.push(responses);
    families
}

fn write_family(out: &mut String, family: &Family, process: &[String]) {
    let name = family.name;
    let _ = write!(out, "# HELP {name} {}\n# TYPE {name} {}\n", family.help, family.kind.as_str());
    for series in &family.series {
        let own = series.labels.iter().map(|(k, v)| format!("{k}=\"{}\"", escape(v)));
        let labels: Vec<String> = process.iter().cloned().chain(own).collect();
        match &series.sample {
            Sample::Value(value) => sample(out, name, &labels, None, *value),
            Sample::Histogram(b) => {
                let bucket = format!("{name}_bucket");
                for (bound, count) in BUCKET_BOUNDS_NS.iter().zip(&b.cumulative) {
                    let le = format!("le=\"{}\"", *bound as f64 / 1e9);
                    sample(out, &bucket, &labels, Some(&le), *count as f64);
                }
                sample(out, &bucket, &labels, Some("le=\"+Inf\""), b.count as f64);
                sample(out, &format!("{name}_sum"), &labels, None, b.sum_ns as f64 / 1e9);
                sample(out, &format!("{name}_count"), &labels, None, b.count as f64);
            }
        }
    }
}

fn sample(out: &mut String, name: &str, labels: &[String], extra: Option<&str>, value: f64) {
    let all: Vec<&str> = labels.iter().map(String::as_str).chain(extra).collect();
    if all.is_empty() {
        let _ = writeln!(out, "{name} {value}");
    } else {
        let _ = writeln!(out, "{name}{{{}}} {value}", all.join(","));
    }
}

#[cfg(test)]
mod tests;
