//! Which benchmarks Criterion's command line selects. Criterion keeps its filter
//! private, so profiling reads the same arguments the same way: the first positional
//! argument is a regex (or, with `--exact`, the whole id); `--ignored` selects none.

use regex::Regex;

/// Criterion options (0.5 to 0.8) that take a value, long and short.
const LONG_WITH_VALUE: &[&str] = &[
    "color",
    "colour",
    "save-baseline",
    "baseline",
    "baseline-lenient",
    "format",
    "profile-time",
    "load-baseline",
    "sample-size",
    "warm-up-time",
    "measurement-time",
    "nresamples",
    "noise-threshold",
    "confidence-level",
    "significance-level",
    "plotting-backend",
    "output-format",
];
const SHORT_WITH_VALUE: &[char] = &['c', 's', 'b'];

/// The benchmark selection of one command line.
#[derive(Debug)]
pub(crate) enum Filter {
    All,
    None,
    Exact(String),
    Pattern(Regex),
}

/// The command line as far as profiling cares.
#[derive(Debug)]
pub(crate) struct Args {
    pub(crate) filter: Filter,
    /// `--list`: Criterion only prints names, so it runs as usual.
    pub(crate) list: bool,
}

impl Filter {
    pub(crate) fn matches(&self, id: &str) -> bool {
        match self {
            Filter::All => true,
            Filter::None => false,
            Filter::Exact(exact) => id == exact,
            Filter::Pattern(regex) => regex.is_match(id),
        }
    }
}

/// Parses the arguments after the program name; an invalid regex is an error.
pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<Args, String> {
    let (mut positional, mut exact, mut ignored, mut list) = (None, false, false, false);
    let mut args = args.into_iter();
    let mut only_positional = false;
    while let Some(arg) = args.next() {
        if only_positional || !arg.starts_with('-') || arg == "-" {
            positional.get_or_insert(arg);
        } else if arg == "--" {
            only_positional = true;
        } else if let Some(long) = arg.strip_prefix("--") {
            match long {
                "exact" => exact = true,
                "ignored" => ignored = true,
                "list" => list = true,
                _ if !long.contains('=') && LONG_WITH_VALUE.contains(&long) => {
                    args.next();
                }
                _ => {}
            }
        } else {
            // A cluster of short flags; a value-taking one ends it, its value inline or next.
            let shorts = &arg[1..];
            if let Some((i, _)) = shorts.char_indices().find(|(_, c)| SHORT_WITH_VALUE.contains(c)) {
                if i + 1 == shorts.len() {
                    args.next();
                }
            }
        }
    }
    let filter = match positional {
        _ if ignored => Filter::None,
        None => Filter::All,
        Some(text) if exact => Filter::Exact(text),
        Some(text) => Filter::Pattern(
            Regex::new(&text).map_err(|e| format!("the filter {text:?} is not a regular expression: {e}"))?,
        ),
    };
    Ok(Args { filter, list })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Args {
        parse(args.iter().map(|s| s.to_string())).unwrap()
    }

    #[test]
    fn exact_and_pattern_filters_match_like_criterion() {
        let args = parsed(&["--bench", "--exact", "work/iter"]);
        assert!(args.filter.matches("work/iter"));
        assert!(!args.filter.matches("work/iter_batched"));
        let args = parsed(&["work/iter", "--bench"]);
        assert!(args.filter.matches("work/iter") && args.filter.matches("work/iter_batched"));
        assert!(!args.filter.matches("async/iter_custom"));
        assert!(parsed(&["--bench"]).filter.matches("anything"));
        assert!(!parsed(&["--ignored", "x"]).filter.matches("x"));
    }

    #[test]
    fn option_values_are_not_filters() {
        let args = parsed(&["--warm-up-time", "0.1", "-c", "never", "--sample-size=10", "-sbase", "work"]);
        assert!(matches!(args.filter, Filter::Pattern(ref r) if r.as_str() == "work"));
        let args = parsed(&["-vn", "--", "--odd"]);
        assert!(matches!(args.filter, Filter::Pattern(ref r) if r.as_str() == "--odd"));
        assert!(parsed(&["--list"]).list);
        assert!(parse(["(".to_string()]).is_err());
    }
}
