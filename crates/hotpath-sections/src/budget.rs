//! The overhead budget's syntax that `#[hotpath::main(overhead_budget = "1%")]`,
//! `HOTPATH_OVERHEAD_BUDGET` and the builder share: checked the same way at compile
//! time and at run time.

/// `1%`, `0.5%` or a fraction like `0.01`, as a fraction of CPU time: above 0, at most
/// 50% (a profiler allowed more than that is not on a budget); `None` for anything else.
pub fn budget_fraction(text: &str) -> Option<f64> {
    let t = text.trim();
    let (number, scale) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), 0.01),
        None => (t, 1.0),
    };
    let fraction = number.parse::<f64>().ok()? * scale;
    valid_budget(fraction).then_some(fraction)
}

/// Whether `fraction` is a budget: finite, above 0, at most 0.5.
pub fn valid_budget(fraction: f64) -> bool {
    fraction.is_finite() && fraction > 0.0 && fraction <= 0.5
}

#[cfg(test)]
mod tests {
    use super::budget_fraction;

    #[test]
    fn percent_or_fraction() {
        assert_eq!(budget_fraction("1%"), Some(0.01));
        assert_eq!(budget_fraction(" 0.5 % "), Some(0.005));
        assert_eq!(budget_fraction("0.02"), Some(0.02));
        for bad in ["", "%", "0%", "-1%", "60%", "1 percent", "NaN", "inf%", "0.6"] {
            assert_eq!(budget_fraction(bad), None, "{bad}");
        }
    }
}
