//! From tokens to the row's text in one pass: `IN (?, ?, ?)` → `IN (?)`, the rows of
//! `VALUES (?, ?), (?, ?)` after the first dropped (`VALUES (?, ?)`), whitespace as
//! one space; and the statement's kind, from its first verb outside parentheses.

use super::lex::Tok;
use super::Kind;

/// Decides each `"..."` left open by the lexer: a name where it is part of a
/// qualified name (`"t"."c"`, no string can be), otherwise a value, since MySQL
/// reads `"..."` as a string.
pub(super) fn resolve_quoted(toks: &mut [Tok], sql: &str) {
    let dot = |t: Option<&Tok>| matches!(t, Some(Tok::Punct(s, e)) if &sql[*s..*e] == ".");
    for i in 0..toks.len() {
        if let Tok::Quoted(s, e) = toks[i] {
            let qualified = dot(i.checked_sub(1).and_then(|p| toks.get(p))) || dot(toks.get(i + 1));
            toks[i] = if qualified { Tok::Word(s, e) } else { Tok::Value };
        }
    }
}

/// The normalized text of `toks` and the statement's kind.
pub(super) fn emit(toks: &[Tok], sql: &str) -> (String, Kind) {
    let mut out = Out { text: String::with_capacity(sql.len().min(4096)), space: false };
    // The first verb outside parentheses, else the first at all.
    let (mut kind, mut nested_kind) = (None, None);
    let mut depth = 0usize;
    // The depth of a `VALUES` whose first row is being written.
    let mut values_at: Option<usize> = None;
    // Off once a row scan met the end: later scans could only meet it again.
    let mut scan_rows = true;
    let mut i = 0;
    while i < toks.len() {
        let tok = toks[i];
        i += 1;
        match tok {
            Tok::Space => out.space = true,
            Tok::Value => out.push("?"),
            Tok::Quoted(s, e) | Tok::Word(s, e) => {
                let w = &sql[s..e];
                out.push(w);
                if depth == 0 && kind.is_none() {
                    kind = Kind::of_verb(w);
                } else if nested_kind.is_none() {
                    nested_kind = Kind::of_verb(w);
                }
                if w.eq_ignore_ascii_case("in") {
                    if let Some(end) = value_list_end(toks, i, sql) {
                        out.push(" (?)");
                        i = end;
                    }
                } else if w.eq_ignore_ascii_case("values") || w.eq_ignore_ascii_case("value") {
                    values_at = Some(depth);
                }
            }
            Tok::Punct(s, e) => {
                let p = &sql[s..e];
                out.push(p);
                match p {
                    "(" => depth += 1,
                    ")" => {
                        depth = depth.saturating_sub(1);
                        if values_at == Some(depth) && scan_rows {
                            values_at = None;
                            match more_rows_end(toks, i, sql) {
                                Some(end) => i = end,
                                None => scan_rows = false,
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    (out.text, kind.or(nested_kind).unwrap_or(Kind::Other))
}

/// The text being written: a space is written only between two tokens.
struct Out {
    text: String,
    space: bool,
}

impl Out {
    fn push(&mut self, s: &str) {
        if self.space && !self.text.is_empty() {
            self.text.push(' ');
        }
        self.space = false;
        self.text.push_str(s);
    }
}

fn skip_space(toks: &[Tok], mut i: usize) -> usize {
    while toks.get(i) == Some(&Tok::Space) {
        i += 1;
    }
    i
}

fn is_punct(tok: Option<&Tok>, sql: &str, p: &str) -> bool {
    matches!(tok, Some(Tok::Punct(s, e)) if &sql[*s..*e] == p)
}

/// After `IN`: the end of ` (?, ?, ...)` when the list holds only values. A list that
/// is not one stops the scan at its first other token, which no later scan starts
/// before, so every token is scanned at most twice.
fn value_list_end(toks: &[Tok], i: usize, sql: &str) -> Option<usize> {
    let mut j = skip_space(toks, i);
    if !is_punct(toks.get(j), sql, "(") {
        return None;
    }
    loop {
        j = skip_space(toks, j + 1);
        if toks.get(j) != Some(&Tok::Value) {
            return None;
        }
        j = skip_space(toks, j + 1);
        if is_punct(toks.get(j), sql, ")") {
            return Some(j + 1);
        }
        if !is_punct(toks.get(j), sql, ",") {
            return None;
        }
    }
}

/// After the first row of `VALUES`: past every further `, (...)` (or `, ROW(...)`)
/// row, each skipped once; `None` when a row stays open to the end.
fn more_rows_end(toks: &[Tok], mut i: usize, sql: &str) -> Option<usize> {
    loop {
        let comma = skip_space(toks, i);
        if !is_punct(toks.get(comma), sql, ",") {
            return Some(i);
        }
        let mut open = skip_space(toks, comma + 1);
        if matches!(toks.get(open), Some(Tok::Word(s, e)) if sql[*s..*e].eq_ignore_ascii_case("row")) {
            open = skip_space(toks, open + 1);
        }
        if !is_punct(toks.get(open), sql, "(") {
            return Some(i);
        }
        let mut depth = 0usize;
        let mut j = open;
        let close = loop {
            match toks.get(j) {
                None => return None,
                Some(t) if is_punct(Some(t), sql, "(") => depth += 1,
                Some(t) if is_punct(Some(t), sql, ")") => {
                    depth -= 1;
                    if depth == 0 {
                        break j;
                    }
                }
                _ => {}
            }
            j += 1;
        };
        i = close + 1;
    }
}
