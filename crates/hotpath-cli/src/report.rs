//! `hotpath report FILE`: validates a JSON report and renders it as the exit table.

use std::io::Write;
use std::path::PathBuf;

use hotpath_model::render_table_parts;

use crate::input::{self, InputArgs};

/// Arguments of `hotpath report`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// JSON report file.
    file: PathBuf,
    #[command(flatten)]
    input: InputArgs,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<()> {
    let path = args.file.display();
    let report = input::read_report(&args.file, args.input.max_bytes()).map_err(|e| e.named(&path.to_string()))?;
    // A section at a time: a report of many rows is never held as one text.
    let mut out = std::io::stdout().lock();
    let mut failed = None;
    render_table_parts(&report, &mut |part| {
        if failed.is_none() {
            failed = out.write_all(part.as_bytes()).err();
        }
    });
    match failed {
        Some(e) => Err(e.into()),
        None => Ok(out.flush()?),
    }
}
