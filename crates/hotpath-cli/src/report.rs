//! `hotpath report FILE`: validates a JSON report and renders it as the exit table.

use std::path::PathBuf;

use anyhow::Context;
use hotpath_model::{render_table, Report};

/// Arguments of `hotpath report`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// JSON report file.
    file: PathBuf,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<()> {
    let path = args.file.display();
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("cannot read {path}"))?;
    let report = Report::from_json(&text).with_context(|| format!("{path}"))?;
    print!("{}", render_table(&report));
    Ok(())
}
