//! Label values in the text exposition format: backslash, double quote and newline
//! escaped, everything else as it is (the format is UTF-8).

/// `value` escaped for a `name="value"` pair.
pub(crate) fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}
