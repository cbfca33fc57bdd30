//! The overhead budget's syntax that `#[hotpath::main(overhead_budget = "1%")]`,
//! `HOTPATH_OVERHEAD_BUDGET` and the builder share: checked the same way at compile
//! time and at run time.

/// `1%`, `0.5%` or a fraction like `0.01`, as a fraction of CPU time: above 0, at most
/// 50% (a profiler allowed more than that is not on a budget); `None` for anything else.
/// A fraction without `%` is at most `MAX_BARE` (0.1): `0.5` would be 50% where `0.5%` was
/// surely meant, so it is refused (with a message saying so), not read either way.
pub fn budget_fraction(text: &str) -> Option<f64> {
    let t = text.trim();
    let (number, scale) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), 0.01),
        None => (t, 1.0),
    };
    let fraction = number.parse::<f64>().ok()? * scale;
    (valid_budget(fraction) && (scale < 1.0 || fraction <= MAX_BARE)).then_some(fraction)
}

/// The largest budget written as a bare fraction (10%).
const MAX_BARE: f64 = 0.1;

/// What a refused budget is told, after its name and value.
pub const BUDGET_PROBLEM: &str =
    "expects a share of CPU time like 1% or 0.01 (above 0, at most 50%; a bare fraction at most 0.1, so write 50% or 0.5% for 0.5)";

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
        assert_eq!(budget_fraction("0.1"), Some(0.1));
        assert_eq!(budget_fraction("50%"), Some(0.5));
        for bad in ["", "%", "0%", "-1%", "60%", "1 percent", "NaN", "inf%", "0.6", "0.5", "0.11"] {
            assert_eq!(budget_fraction(bad), None, "{bad}");
        }
    }
}
