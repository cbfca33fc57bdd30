//! The duration syntax that `#[measure(timeline_over = "50ms")]` and
//! `HOTPATH_TIMELINE_TRIGGER` share: a number and a unit, checked the same way at
//! compile time and at run time.

/// `50ms`, `1.5s`, `750us` (or `µs`), `100ns` in nanoseconds: at least 1 ns, at most
/// 10^15 ns; `None` for anything else.
pub fn duration_ns(text: &str) -> Option<u64> {
    let t = text.trim();
    let at = t.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = t.split_at(at);
    let number: f64 = number.parse().ok()?;
    let scale = match unit.trim() {
        "ns" => 1.0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return None,
    };
    let ns = number * scale;
    (ns.is_finite() && (1.0..=1e15).contains(&ns)).then_some(ns as u64)
}

#[cfg(test)]
mod tests {
    use super::duration_ns;

    #[test]
    fn a_number_and_a_unit() {
        assert_eq!(duration_ns("50ms"), Some(50_000_000));
        assert_eq!(duration_ns(" 1.5s "), Some(1_500_000_000));
        assert_eq!(duration_ns("750us"), Some(750_000));
        assert_eq!(duration_ns("100ns"), Some(100));
        for bad in ["50", "ms", "5 parsecs", "0ms", "-1ms", "1e3ms", ""] {
            assert_eq!(duration_ns(bad), None, "{bad}");
        }
    }
}
