//! `hotpath report FILE`: validates a JSON report and renders it as the exit table.

use std::path::PathBuf;

use hotpath_model::render_table;

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
    print!("{}", render_table(&report));
    Ok(())
}
