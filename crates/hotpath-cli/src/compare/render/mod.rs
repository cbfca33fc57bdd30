//! Printers of a [`Comparison`]: a terminal table, GitHub-flavoured markdown for a
//! pull-request comment, and JSON. The first two share the choice of lines and the
//! cell texts (`lines.rs`) and escape what they print (`escape.rs`); JSON is the
//! comparison serialized as it is walked.

pub(crate) mod budgets;
mod escape;
#[cfg(test)]
mod fixture;
mod lines;
mod markdown;
mod table;

use std::io::Write;

use super::diff::Comparison;

pub(crate) use markdown::render as markdown;
pub(crate) use table::render as table;

/// The comparison as indented JSON with a final newline, streamed to `out`.
pub(crate) fn json(c: &Comparison<'_>, out: &mut dyn Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, c)?;
    out.write_all(b"\n")
}
