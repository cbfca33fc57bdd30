//! Comparing instruction counts (`functions_icount`): the `--icount-threshold`
//! argument, and with `--git --valgrind` a side reduced to its instruction counts.
//! The counts are compared like any exact value (`verdict.rs`), with their own
//! threshold: a program runs the same instructions every time, so one run per side
//! is a verdict and any change beyond the threshold is real.

use anyhow::bail;

use super::side::Side;

/// The section holding instruction counts.
pub(crate) const SECTION: &str = "functions_icount";

/// `1%`, `0.5`, `2 %`: a percentage of 0 or more.
pub(crate) fn percent(text: &str) -> Result<f64, String> {
    let number = text.trim().strip_suffix('%').unwrap_or(text.trim()).trim();
    match number.parse::<f64>() {
        Ok(p) if p.is_finite() && p >= 0.0 => Ok(p),
        _ => Err(format!("{text:?} is not a percentage (like 1% or 0.5)")),
    }
}

/// Keeps only the instruction counts of a side run under Callgrind (its timings are
/// those of a program slowed down fifty times); an error when it has none.
pub(crate) fn only_icount(side: &mut Side) -> anyhow::Result<()> {
    side.sections.retain(|name, _| name == SECTION);
    if side.sections.get(SECTION).is_none_or(|s| s.rows.is_empty()) {
        bail!(
            "{}: the run under Callgrind reported no instruction counts: the program must be built with the \
             hotpath-callgrind feature (for example `cargo run --release --features hotpath-callgrind`), and \
             its functions-icount section says why not",
            side.label
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_with_or_without_the_sign() {
        assert_eq!(percent("1%"), Ok(1.0));
        assert_eq!(percent(" 0.5 % "), Ok(0.5));
        assert_eq!(percent("2"), Ok(2.0));
        assert!(percent("-1%").is_err() && percent("x").is_err() && percent("inf").is_err());
    }
}
