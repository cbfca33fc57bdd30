//! The key of a query: literals and placeholders as `?`, `IN (...)` lists of them
//! folded, whitespace collapsed. Runs once per distinct raw text per thread (the
//! caller caches raw text → row), so it may allocate.

/// `SELECT name FROM users WHERE id IN (1, 2, 3) AND note = 'it''s'` →
/// `SELECT name FROM users WHERE id IN (?) AND note = ?`.
pub(crate) fn normalize(sql: &str) -> String {
    let b = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\'' {
            i = skip_string(b, i);
            out.push('?');
        } else if c == b'"' || c == b'`' {
            // A quoted identifier: kept as written.
            let end = b[i + 1..].iter().position(|&d| d == c).map_or(b.len(), |p| i + 2 + p);
            out.push_str(&sql[i..end]);
            i = end;
        } else if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if !out.is_empty() {
                out.push(' ');
            }
        } else if (c == b'$' || c == b'?') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            out.push('?');
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let end = number_end(b, i);
            if b.get(end).is_some_and(|&d| is_ident(d)) {
                // `2fa`: part of a name.
                let end = ident_end(b, end);
                out.push_str(&sql[i..end]);
                i = end;
            } else {
                out.push('?');
                i = end;
            }
        } else if is_ident(c) {
            let end = ident_end(b, i);
            out.push_str(&sql[i..end]);
            i = end;
        } else {
            let ch = sql[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    fold_in_lists(&out)
}

/// Past a `'...'` literal starting at `i` (`''` is an escaped quote).
fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        if b[i] == b'\'' {
            if b.get(i + 1) == Some(&b'\'') {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i += 1;
    }
    i
}

/// Past a number: digits, one fraction, an exponent.
fn number_end(b: &[u8], mut i: usize) -> usize {
    let digits = |b: &[u8], mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    i = digits(b, i);
    if b.get(i) == Some(&b'.') {
        i = digits(b, i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        if b.get(i + 1 + sign).is_some_and(u8::is_ascii_digit) {
            i = digits(b, i + 1 + sign);
        }
    }
    i
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ident(b[i]) {
        i += 1;
    }
    i
}

/// `IN (?, ?, ?)` (any case, any spacing) → `IN (?)`.
fn fold_in_lists(sql: &str) -> String {
    let b = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let mut i = 0;
    while i < b.len() {
        let word_start = i == 0 || !is_ident(b[i - 1]);
        if word_start
            && b.len() - i >= 2
            && b[i..i + 2].eq_ignore_ascii_case(b"in")
            && !b.get(i + 2).is_some_and(|&c| is_ident(c))
        {
            let mut j = i + 2;
            while j < b.len() && b[j] == b' ' {
                j += 1;
            }
            if b.get(j) == Some(&b'(') {
                let close = b[j..].iter().position(|&c| c == b')').map(|p| j + p);
                if let Some(close) = close {
                    let inner = &sql[j + 1..close];
                    if !inner.trim().is_empty() && inner.split(',').all(|p| p.trim() == "?") {
                        out.push_str(&sql[i..i + 2]);
                        out.push_str(" (?)");
                        i = close + 1;
                        continue;
                    }
                }
            }
        }
        let ch = sql[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn literals_placeholders_lists_and_whitespace() {
        assert_eq!(normalize("SELECT name FROM users WHERE age = 21"), "SELECT name FROM users WHERE age = ?");
        assert_eq!(normalize("select * from t where id in (1, 2, 3)"), "select * from t where id in (?)");
        assert_eq!(normalize("SELECT * FROM t WHERE id IN (4,5,6,7,8)"), "SELECT * FROM t WHERE id IN (?)");
        assert_eq!(normalize("UPDATE t SET a = $1, b = $12 WHERE c = ?3"), "UPDATE t SET a = ?, b = ? WHERE c = ?");
        assert_eq!(normalize("INSERT INTO t VALUES ('it''s', -1.5e3, ?)"), "INSERT INTO t VALUES (?, -?, ?)");
        assert_eq!(
            normalize("  SELECT\n\t t1.x,  \"Col 2\"  FROM t1 JOIN t2fa ON 2fa = 1  "),
            "SELECT t1.x, \"Col 2\" FROM t1 JOIN t2fa ON 2fa = ?"
        );
        assert_eq!(normalize("SELECT 'é' || name FROM ünïcode"), "SELECT ? || name FROM ünïcode");
        assert_eq!(
            normalize("SELECT * FROM t WHERE a IN (SELECT b FROM u)"),
            "SELECT * FROM t WHERE a IN (SELECT b FROM u)"
        );
        assert_eq!(
            normalize("SELECT min(x), in_stock FROM t WHERE x IN(?, ?)"),
            "SELECT min(x), in_stock FROM t WHERE x IN (?)"
        );
        assert_eq!(normalize("SELECT 'unterminated"), "SELECT ?");
    }
}
