//! Human formatting of raw values, used only by the table printer.

/// `850` → `"850 ns"`, `12_345` → `"12.35 µs"`, `1_500_000_000` → `"1.50 s"`.
pub fn format_duration_ns(ns: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "µs")];
    for (scale, unit) in UNITS {
        if ns >= scale {
            return format!("{:.2} {unit}", ns as f64 / scale as f64);
        }
    }
    format!("{ns} ns")
}

/// `316` → `"316 B"`, `12_697` → `"12.4 KB"` (binary multiples, as `ps` and `top` show them).
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// Counts with thousands separators: `1234567` → `"1,234,567"`.
pub fn format_count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `part / whole` as a percentage with one decimal, `-` when `whole` is zero.
pub fn format_percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".into();
    }
    format!("{:.1}%", part as f64 * 100.0 / whole as f64)
}

/// A percentage value with one decimal: `98.2` → `"98.2%"`.
pub fn format_percent_value(percent: f64) -> String {
    format!("{percent:.1}%")
}

/// Nanoseconds as seconds with millisecond precision: `193_000_000` → `"0.193s"`.
pub fn format_seconds(ns: u64) -> String {
    format!("{}.{:03}s", ns / 1_000_000_000, (ns % 1_000_000_000) / 1_000_000)
}

/// The last `depth` segments of a `::` path (0 keeps it whole); separators inside
/// `<...>` do not count, so `<app::A as app::T>::run` stays readable.
pub fn short_name(path: &str, depth: usize) -> &str {
    if depth == 0 {
        return path;
    }
    let bytes = path.as_bytes();
    let (mut angle, mut seen, mut i) = (0i32, 0usize, bytes.len());
    while i > 0 {
        i -= 1;
        match bytes[i] {
            b'>' => angle += 1,
            b'<' => angle -= 1,
            b':' if angle == 0 && i > 0 && bytes[i - 1] == b':' => {
                seen += 1;
                if seen == depth {
                    return &path[i + 1..];
                }
                i -= 1;
            }
            _ => {}
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(format_duration_ns(0), "0 ns");
        assert_eq!(format_duration_ns(999), "999 ns");
        assert_eq!(format_duration_ns(12_345), "12.35 µs");
        assert_eq!(format_duration_ns(2_500_000), "2.50 ms");
        assert_eq!(format_duration_ns(1_500_000_000), "1.50 s");
    }

    #[test]
    fn short_names() {
        assert_eq!(short_name("app::module::parse", 2), "module::parse");
        assert_eq!(short_name("app::module::parse", 0), "app::module::parse");
        assert_eq!(short_name("parse", 2), "parse");
        assert_eq!(short_name("app::<app::A as app::T>::run", 2), "<app::A as app::T>::run");
        assert_eq!(short_name("a::b::c", 1), "c");
    }

    #[test]
    fn bytes() {
        assert_eq!(format_bytes(316), "316 B");
        assert_eq!(format_bytes(12_697), "12.4 KB");
        assert_eq!(format_bytes(1_887_437), "1.8 MB");
    }

    #[test]
    fn counts_and_percent() {
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(1_234_567), "1,234,567");
        assert_eq!(format_count(100), "100");
        assert_eq!(format_percent(1, 3), "33.3%");
        assert_eq!(format_percent(1, 0), "-");
        assert_eq!(format_percent_value(6.25), "6.2%");
        assert_eq!(format_seconds(193_400_000), "0.193s");
        assert_eq!(format_seconds(1_873_000_000), "1.873s");
    }
}
