//! Process labels: `name=value` pairs the live server adds to every series of
//! `/metrics` (`HOTPATH_METRICS_LABELS="service=api,zone=a"`, or the builder's
//! `metrics_labels`), so a fleet's series say which service and zone they come from.
//!
//! A name must be a valid Prometheus label name, must not start with `__` (reserved
//! by Prometheus), and must not be one of [`RESERVED_LABELS`] (the instruments' own
//! labels and Prometheus's `le`, `quantile`, `job`, `instance`): then two instruments'
//! series can never collide, whatever the user adds. Values are any text; the
//! exposition escapes them.

use hotpath_model::RESERVED_LABELS;

/// Process labels in the order given, names unique.
type MetricsLabels = Vec<(String, String)>;

/// `name=value,name2=value2` (spaces around names and values trimmed; an empty list
/// is allowed), or what is wrong with it, in the overlay's "is not ..." style.
pub(super) fn parse(text: &str) -> Result<MetricsLabels, String> {
    let mut labels = MetricsLabels::new();
    for segment in text.split(',').filter(|s| !s.trim().is_empty()) {
        let Some((name, value)) = segment.split_once('=') else {
            return Err(format!("has {:?}, not name=value", segment.trim()));
        };
        let (name, value) = (name.trim(), value.trim());
        check(name, value)?;
        if labels.iter().any(|(n, _)| n == name) {
            return Err(format!("repeats the label {name:?}"));
        }
        labels.push((name.to_string(), value.to_string()));
    }
    Ok(labels)
}

/// One pair: a valid, unreserved name and a non-empty value.
pub(super) fn check(name: &str, value: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("has {name:?}, not a label name ([a-zA-Z_][a-zA-Z0-9_]*)"));
    }
    if name.starts_with("__") {
        return Err(format!("has {name:?}: names starting with __ are Prometheus's own"));
    }
    if RESERVED_LABELS.contains(&name) {
        return Err(format!("has {name:?}, a label hotpath or Prometheus already uses"));
    }
    if value.is_empty() {
        // Prometheus treats an empty value as a missing label.
        return Err(format!("has an empty value for {name:?}"));
    }
    Ok(())
}

/// The labels for a warning's "using ...".
pub(super) fn shown(labels: &[(String, String)]) -> String {
    if labels.is_empty() {
        return "no process labels".into();
    }
    let pairs: Vec<String> = labels.iter().map(|(n, v)| format!("{n}={v}")).collect();
    pairs.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_in_order_trimmed() {
        let labels = parse(" service = api ,zone=a,, ").unwrap();
        assert_eq!(labels, [("service".into(), "api".into()), ("zone".into(), "a".into())]);
        assert!(parse("").unwrap().is_empty());
        // A value may hold anything the exposition can escape, `=` included.
        assert_eq!(parse(r#"note=a="b"\c"#).unwrap(), [("note".into(), r#"a="b"\c"#.into())]);
    }

    #[test]
    fn bad_pairs_say_why() {
        for (text, why) in [
            ("service", "not name=value"),
            ("9zone=a", "not a label name"),
            ("zo-ne=a", "not a label name"),
            ("=a", "not a label name"),
            ("__name__=x", "Prometheus's own"),
            ("function=f", "already uses"),
            ("stack=s", "already uses"),
            ("le=1", "already uses"),
            ("instance=x", "already uses"),
            ("zone=", "empty value"),
            ("zone=a,zone=b", "repeats"),
        ] {
            let err = parse(text).unwrap_err();
            assert!(err.contains(why), "{text}: {err}");
        }
    }
}
