//! From tokens to the row's text in one pass: `IN (?, ?, ?)` → `IN (?)`, the rows of
//! `VALUES (?, ?), (?, ?)` after the first dropped (`VALUES (?, ?)`), whitespace as
//! one space; and the statement's kind, from its first verb outside parentheses.

use super::lex::{Class, Tok};
use super::Kind;

/// Decides each `"..."` left open by the lexer: a name where it is part of a
/// qualified name (`"t"."c"`, no string can be), otherwise a value, since MySQL
/// reads `"..."` as a string.
pub(super) fn resolve_quoted(toks: &mut [Tok], sql: &str) {
    let dot = |t: Option<&Tok>| t.is_some_and(|t| t.is_punct(sql, "."));
    for i in 0..toks.len() {
        if toks[i].class == Class::Quoted {
            let qualified = dot(i.checked_sub(1).and_then(|p| toks.get(p))) || dot(toks.get(i + 1));
            toks[i].class = if qualified { Class::Word } else { Class::Value };
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
    // An `INSERT` or `REPLACE` was seen: MySQL's `VALUE` (a column elsewhere) lists rows.
    let mut inserting = false;
    let mut i = 0;
    while i < toks.len() {
        let tok = toks[i];
        i += 1;
        match tok.class {
            Class::Space | Class::Comment => out.space = true,
            Class::Value => out.push("?"),
            Class::Quoted | Class::Word => {
                let w = tok.text(sql);
                out.push(w);
                if depth == 0 && kind.is_none() {
                    kind = Kind::of_verb(w);
                } else if nested_kind.is_none() {
                    nested_kind = Kind::of_verb(w);
                }
                inserting |= w.eq_ignore_ascii_case("insert") || w.eq_ignore_ascii_case("replace");
                if w.eq_ignore_ascii_case("in") {
                    if let Some(end) = value_list_end(toks, i, sql) {
                        out.push(" (?)");
                        i = end;
                    }
                } else if (w.eq_ignore_ascii_case("values") || inserting && w.eq_ignore_ascii_case("value"))
                    && opens_row(toks, i, sql)
                {
                    values_at = Some(depth);
                }
            }
            Class::Punct => {
                let p = tok.text(sql);
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
    while toks.get(i).is_some_and(Tok::is_space) {
        i += 1;
    }
    i
}

fn is_punct(tok: Option<&Tok>, sql: &str, p: &str) -> bool {
    tok.is_some_and(|t| t.is_punct(sql, p))
}

fn is_value(tok: Option<&Tok>) -> bool {
    tok.is_some_and(|t| t.class == Class::Value)
}

fn is_row_word(tok: Option<&Tok>, sql: &str) -> bool {
    tok.is_some_and(|t| t.class == Class::Word && t.text(sql).eq_ignore_ascii_case("row"))
}

/// After `VALUES`: a row follows (`(` or `ROW(`), so the word lists rows; `value` as
/// a column (`SELECT value, ...`, `SET value = ...`) does not.
fn opens_row(toks: &[Tok], i: usize, sql: &str) -> bool {
    let j = skip_space(toks, i);
    is_punct(toks.get(j), sql, "(") || is_row_word(toks.get(j), sql)
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
        if !is_value(toks.get(j)) {
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
        if is_row_word(toks.get(open), sql) {
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
