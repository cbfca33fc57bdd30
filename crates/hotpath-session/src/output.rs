//! Writing the report. Nothing here may panic: a closed stdout or an unwritable
//! output path turns into a warning on stderr.

use std::io::Write;

use hotpath_engine::diag::warn;
use hotpath_model::{render_table, Report};

use crate::config::{Config, Format};

/// Renders the report in the configured format to the configured destination.
pub(crate) fn emit(report: &Report, config: &Config) {
    let text = match config.format {
        Format::Table => render_table(report),
        Format::Json => report.to_json(false) + "\n",
        Format::JsonPretty => report.to_json(true) + "\n",
        Format::None => return,
    };
    match &config.output_path {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                warn(&format!("could not write the report to {}: {e}", path.display()));
            }
        }
        None => {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        }
    }
}
