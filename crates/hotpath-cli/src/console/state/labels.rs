//! Human labels for JSON field paths: `lock.wait.percentiles_ns.p50` → `Lock wait P50`,
//! `cpu_user_ns` → `CPU user`, `busy_percent` → `Busy %`. The unit words go: the
//! value is shown in its unit already.

/// Words written in capitals.
const ACRONYMS: [&str; 6] = ["cpu", "io", "rss", "tid", "pid", "id"];

/// The label of a (dotted) field path.
pub(crate) fn title_of(path: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut parent = "";
    for part in split_path(path) {
        if matches!(part, "percentiles_ns" | "percentiles") {
            continue;
        }
        // `status.status_2xx` reads `Status 2xx`: the parent's word is said once.
        let said = std::mem::replace(&mut parent, part);
        let part = part.strip_prefix(said).and_then(|p| p.strip_prefix('_')).filter(|p| !p.is_empty()).unwrap_or(part);
        if is_percentile(part) {
            words.push(part.to_uppercase());
            continue;
        }
        // `bytes_percentiles.p50` reads `Bytes P50`: the percentile says it already.
        let mut parts: Vec<&str> = part.split('_').filter(|w| !w.is_empty() && *w != "percentiles").collect();
        // Unit suffixes: `_ns` and `_bytes_per_sec` say what the formatted value shows.
        if parts.len() > 1 && matches!(parts.last(), Some(&"ns") | Some(&"ms")) {
            parts.pop();
        }
        for w in parts {
            words.push(match w {
                "percent" | "pct" => "%".to_string(),
                "avg" => "avg".to_string(),
                "per" => "/".to_string(),
                w if ACRONYMS.contains(&w) => w.to_uppercase(),
                w => w.to_string(),
            });
        }
    }
    let joined = words.join(" ").replace(" / ", "/");
    let mut chars = joined.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// Parts of a dotted path, keeping percentile keys such as `p99.9` whole.
fn split_path(path: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let mut start = 0;
    for (i, c) in path.char_indices() {
        if c == '.' && !(is_percentile(&path[start..i]) && path[i + 1..].starts_with(|d: char| d.is_ascii_digit())) {
            out.push(&path[start..i]);
            start = i + 1;
        }
    }
    out.push(&path[start..]);
    out
}

/// `p50`, `p99.9`.
fn is_percentile(part: &str) -> bool {
    part.len() >= 2
        && part.len() <= 6
        && part.starts_with('p')
        && part[1..].chars().all(|c| c.is_ascii_digit() || c == '.')
        && part[1..].starts_with(|c: char| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_like_words() {
        assert_eq!(title_of("total_ns"), "Total");
        assert_eq!(title_of("sent_count"), "Sent count");
        assert_eq!(title_of("lock.wait.avg_ns"), "Lock wait avg");
        assert_eq!(title_of("lock.wait.percentiles_ns.p50"), "Lock wait P50");
        assert_eq!(title_of("wall.percentiles_ns.p99.9"), "Wall P99.9");
        assert_eq!(title_of("percentiles_ns.p99"), "P99");
        assert_eq!(title_of("cpu_user_ns"), "CPU user");
        assert_eq!(title_of("busy_percent"), "Busy %");
        assert_eq!(title_of("items_per_sec"), "Items/sec");
        assert_eq!(title_of("read.bytes_per_sec"), "Read bytes/sec");
        assert_eq!(title_of("tid"), "TID");
        assert_eq!(title_of("interval_ms"), "Interval");
        assert_eq!(title_of("bytes_percentiles.p99.9"), "Bytes P99.9");
        assert_eq!(title_of("ns"), "Ns");
        assert_eq!(title_of("status.status_1xx"), "Status 1xx");
        assert_eq!(title_of("status.status_5xx"), "Status 5xx");
        assert_eq!(title_of("scope.sql_queries"), "Scope sql queries");
    }
}
