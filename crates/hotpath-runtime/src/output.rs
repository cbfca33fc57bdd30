//! Writing the report and warnings. Nothing here may panic: a closed stdout or an
//! unwritable output path turns into a warning on stderr.

use std::io::Write;
use std::sync::Mutex;

use hotpath_model::{render_table, Report};

use crate::config::{Config, Format};

/// One warning line on stderr, prefixed like every hotpath message.
pub(crate) fn warn(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "[hotpath] warning: {message}");
}

/// One informational line on stderr.
pub(crate) fn note(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "[hotpath] {message}");
}

/// Warnings raised after start-up that belong in the report header too.
static REPORT_WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// A warning printed now and repeated in every later report's `meta.warnings`.
pub(crate) fn warn_in_report(message: String) {
    warn(&message);
    crate::sync::lock(&REPORT_WARNINGS).push(message);
}

/// Warnings raised with [`warn_in_report`] so far.
pub(crate) fn report_warnings() -> Vec<String> {
    crate::sync::lock(&REPORT_WARNINGS).clone()
}

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
