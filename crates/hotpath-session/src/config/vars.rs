//! What the overlay's tables are made of: a variable, its raw value, and the parsers
//! the entries use.

use std::ffi::OsStr;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::str::FromStr;

use super::Config;

pub(super) const NOT_UTF8: &str = "is not valid UTF-8";

/// A variable's value as the environment holds it.
#[derive(Clone, Copy)]
pub(super) enum Value<'a> {
    Text(&'a str),
    /// Not UTF-8: paths take it as it is; other variables reject it.
    Raw(&'a OsStr),
}

/// One `HOTPATH_*` variable.
pub(super) struct Variable {
    pub(super) name: &'static str,
    /// Applies the value, or says what is wrong with it ("is not ...") and leaves
    /// the configuration as it was (except where a rejection must fail closed).
    pub(super) apply: fn(&mut Config, Value<'_>) -> Result<(), String>,
    /// What is in use after a rejection, for the warning's "using ...".
    pub(super) kept: fn(&Config) -> String,
    /// The value is a secret and never appears in a warning.
    pub(super) secret: bool,
}

/// `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off` (any case, spaces ignored).
pub(super) fn flag(value: Value<'_>) -> Result<bool, String> {
    match text(value)?.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "" | "0" | "false" | "no" | "off" => Ok(false),
        _ => Err("is not 1/true/yes/on or 0/false/no/off".into()),
    }
}

/// `key=value,key2=value2`: split at the first `=`, keys and values trimmed.
pub(super) fn parse_metadata(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for segment in text.split(',').filter(|s| !s.trim().is_empty()) {
        let Some((key, value)) = segment.split_once('=') else {
            return Err(format!("has {:?}, not key=value", segment.trim()));
        };
        let key = key.trim();
        if key.is_empty() {
            return Err(format!("has an empty key in {:?}", segment.trim()));
        }
        if pairs.iter().any(|(k, _)| k == key) {
            return Err(format!("repeats the key {key:?}"));
        }
        pairs.push((key.to_string(), value.trim().to_string()));
    }
    Ok(pairs)
}

pub(super) fn text(value: Value<'_>) -> Result<&str, String> {
    match value {
        Value::Text(t) => Ok(t),
        Value::Raw(_) => Err(NOT_UTF8.into()),
    }
}

/// A path: any bytes the system accepts, but not empty.
pub(super) fn path(value: Value<'_>) -> Result<PathBuf, String> {
    match value {
        Value::Text(t) if t.trim().is_empty() => Err("is empty".into()),
        Value::Text(t) => Ok(PathBuf::from(t)),
        Value::Raw(raw) => Ok(PathBuf::from(raw)),
    }
}

/// A number in `range` (surrounding spaces allowed); `problem` otherwise.
pub(super) fn number<T: FromStr + PartialOrd>(
    value: Value<'_>,
    range: RangeInclusive<T>,
    problem: &str,
) -> Result<T, String> {
    let n = text(value)?.trim().parse::<T>().map_err(|_| problem.to_string())?;
    if range.contains(&n) {
        Ok(n)
    } else {
        Err(problem.into())
    }
}

pub(super) fn parse_percentiles(text: &str) -> Option<Vec<f64>> {
    let list: Vec<f64> = text.split(',').map(|p| p.trim().parse().ok()).collect::<Option<_>>()?;
    let valid = !list.is_empty() && list.iter().all(|p| (0.0..=100.0).contains(p));
    valid.then_some(list)
}
