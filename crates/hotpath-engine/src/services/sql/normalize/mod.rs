//! The key of a query: no literal of any dialect sqlx and diesel speak (SQLite,
//! PostgreSQL, MySQL) survives, so a row, its JSON and its `/metrics` label never
//! carry data. Runs once per distinct raw text per thread (the caller caches raw text
//! → row), in time linear in the text, and the text it returns is bounded.
//!
//! Privacy rule: where the readings of a statement disagree (the dialect is unknown
//! and `\'` may or may not escape, `"..."` may be a name or a string, `#` may start
//! a comment or an operator), the safe side wins: whatever any plausible reading
//! holds to be a literal or a comment is hidden, even if that shows more `?` than
//! the statement has values.
//!
//! - Literals and placeholders are `?`: `'...'` (`''` and, in MySQL, `\'` escapes),
//!   `E'...'`, `X'..'`, `B'..'`, `N'..'`, `U&'..'`, `_charset'..'`, `$$...$$`,
//!   `$tag$...$tag$`, numbers (`1`, `-1` after an operator, `.5`, `1e5`, `1_000`,
//!   `0x1F`, `0b101`), `?`, `?1`, `$1`. An unterminated string runs to the end.
//! - Comments (`-- ...`, `/* ... */` nested, MySQL's `# ...`) are dropped; `#` is read
//!   as a comment unless the dialect is known to be SQLite or PostgreSQL; `#>` and
//!   `#-` (PostgreSQL's JSON operators) are operators only where the dialect is
//!   PostgreSQL, known or read from the statement's hints (`::`, `E'..'`, `$$`).
//! - `"..."` is a name in PostgreSQL, a string in MySQL, and in SQLite a name unless
//!   no column has it, then a string: it is kept where the dialect is known to be
//!   PostgreSQL (diesel's connection URL, or a `::` cast, `E'..'` or `$$` string in
//!   the statement; not `$1`, which sqlx's SQLite uses too) or where it is part of a
//!   qualified name (`"t"."c"`); elsewhere `?`. (diesel quotes SQLite and MySQL
//!   names with backticks, which are always kept.)
//! - `\'` is an escape only in MySQL: where the dialect is unknown and a backslash
//!   ends or escapes inside a string, the text is read both with and without it. A
//!   reading that leaves a string open to the end is a misread and the other is
//!   taken; where both close (or both stay open), the one the PostgreSQL hints ask
//!   for is taken and masked by the other: what either holds to be a literal or a
//!   comment is `?` or dropped.
//! - `IN (?, ?, ...)` is `IN (?)`; `VALUES (?, ?), (?, ?), ...` is `VALUES (?, ?)`
//!   (the first row stands for every row, so a batch's size is not a new row), where
//!   a row follows (`(` or `ROW`); MySQL's `VALUE` only after `INSERT`/`REPLACE`.
//! - Text past [`TEXT_CAP`] bytes keeps its head and tail around ` … ` and ends in
//!   ` #` and the hash of the whole normalized text, so long statements that differ
//!   anywhere stay distinct rows.

mod fold;
mod lex;
#[cfg(test)]
mod tests;

use crate::services::hash::Fnv;

/// The most bytes of a row's text.
pub(crate) const TEXT_CAP: usize = 1024;
/// Of a capped text: bytes kept at the end.
const TAIL: usize = 256;

/// The dialect, where the library says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Unknown,
    Sqlite,
    Postgres,
    Mysql,
}

impl Dialect {
    /// The dialect of a connection URL (diesel's): `postgres://`, `mysql://`, a
    /// libpq conninfo string (`host=h dbname=d`, `key=value` pairs, no `://`), else a
    /// SQLite path (`file:x.db?mode=ro` included).
    #[cfg_attr(not(feature = "diesel"), allow(dead_code))]
    pub(crate) fn of_url(url: &str) -> Self {
        let Some((scheme, _)) = url.split_once("://") else {
            let first = url.split_ascii_whitespace().next().unwrap_or("");
            let key = first.split_once('=').map(|(key, _)| key);
            let conninfo =
                key.is_some_and(|k| !k.is_empty() && k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_'));
            return if conninfo { Self::Postgres } else { Self::Sqlite };
        };
        match scheme.to_ascii_lowercase().as_str() {
            "postgres" | "postgresql" => Self::Postgres,
            "mysql" | "mariadb" => Self::Mysql,
            _ => Self::Sqlite,
        }
    }
}

/// What a statement does, for what its row count means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Returns rows (`SELECT`, `VALUES`, `PRAGMA`, ...): rows returned.
    Read,
    /// Changes rows (`INSERT`, `UPDATE`, `DELETE`, ...): rows affected.
    Write,
    Other,
}

impl Kind {
    /// The kind a verb starts, if it is one (`WITH ... INSERT` is found at `INSERT`).
    fn of_verb(word: &str) -> Option<Self> {
        const READ: [&str; 7] = ["select", "values", "show", "explain", "pragma", "describe", "desc"];
        const WRITE: [&str; 6] = ["insert", "update", "delete", "replace", "merge", "upsert"];
        let is = |list: &[&str]| list.iter().any(|v| word.eq_ignore_ascii_case(v));
        if is(&READ) {
            Some(Self::Read)
        } else if is(&WRITE) {
            Some(Self::Write)
        } else {
            None
        }
    }
}

/// A statement's row text and kind.
#[derive(Debug)]
pub(crate) struct Normalized {
    pub(crate) text: String,
    pub(crate) kind: Kind,
}

/// `SELECT name FROM users WHERE id IN (1, 2, 3) AND note = 'it''s' -- x` →
/// `SELECT name FROM users WHERE id IN (?) AND note = ?`.
pub(crate) fn normalize(sql: &str, dialect: Dialect) -> Normalized {
    let mode = |backslash: bool, hash_comments: bool, hash_operators: bool, dq_ident: Option<bool>| lex::Mode {
        backslash,
        hash_comments,
        hash_operators,
        dq_ident,
    };
    let lexed = match dialect {
        // SQLite reads a `"..."` that names no column as a string: only qualified ones
        // are kept there.
        Dialect::Sqlite => lex::lex(sql, mode(false, false, false, None)),
        Dialect::Postgres => lex::lex(sql, mode(false, false, true, Some(true))),
        Dialect::Mysql => lex::lex(sql, mode(true, true, false, Some(false))),
        // `#` stays a comment here unless the statement reads as PostgreSQL.
        Dialect::Unknown => {
            let first = lex::lex(sql, mode(true, true, false, None));
            let postgres = first.postgres;
            let dq_ident = postgres.then_some(true);
            if !first.backslash_used {
                if postgres {
                    return finish(lex::lex(sql, mode(false, true, true, dq_ident)), sql);
                }
                return finish(first, sql);
            }
            let mut second = lex::lex(sql, mode(false, true, postgres, dq_ident));
            // A reading that leaves a string open to the end is a misread: the other.
            if first.open != second.open {
                return finish(if first.open { second } else { first }, sql);
            }
            // Both plausible: the one the PostgreSQL hints ask for, hiding what the
            // other holds to be a literal or a comment (the privacy rule). Quoted
            // names of the other are decided first, so that a string there hides.
            let mut first = first;
            let (kept, other) = if postgres { (&mut second, &mut first) } else { (&mut first, &mut second) };
            fold::resolve_quoted(&mut other.toks, sql);
            lex::mask(&mut kept.toks, &other.toks);
            return finish(if postgres { second } else { first }, sql);
        }
    };
    finish(lexed, sql)
}

fn finish(mut lexed: lex::Lexed, sql: &str) -> Normalized {
    fold::resolve_quoted(&mut lexed.toks, sql);
    let (text, kind) = fold::emit(&lexed.toks, sql);
    Normalized { text: cap(text), kind }
}

/// `text` within [`TEXT_CAP`] bytes: head ` … ` tail ` #hash` when longer.
fn cap(text: String) -> String {
    if text.len() <= TEXT_CAP {
        return text;
    }
    let hash = Fnv::new().bytes(text.as_bytes()).finish();
    let suffix = format!(" #{hash:016x}");
    const ELLIPSIS: &str = " … ";
    let mut head = TEXT_CAP - TAIL - ELLIPSIS.len() - suffix.len();
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - TAIL;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    format!("{}{ELLIPSIS}{}{suffix}", text[..head].trim_end(), text[tail..].trim_start())
}
