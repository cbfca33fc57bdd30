//! Warnings and notes on stderr. Nothing here may panic or block for long: a closed
//! stderr loses the line, never the program.

use std::io::Write;
use std::sync::Mutex;

/// One warning line on stderr, prefixed like every hotpath message.
pub fn warn(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "[hotpath] warning: {message}");
}

/// One informational line on stderr.
pub fn note(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "[hotpath] {message}");
}

/// Warnings raised after start-up that belong in the report header too.
static REPORT_WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// A warning printed now and repeated in every later report's `meta.warnings`.
pub fn warn_in_report(message: String) {
    warn(&message);
    crate::sync::lock(&REPORT_WARNINGS).push(message);
}

/// Warnings raised with [`warn_in_report`] so far.
pub fn report_warnings() -> Vec<String> {
    crate::sync::lock(&REPORT_WARNINGS).clone()
}
