//! One pass over a statement's bytes into tokens: every literal of SQLite, PostgreSQL
//! and MySQL (strings in all their forms, numbers, blobs, placeholders) becomes one
//! value token, comments and whitespace become one space token, everything else is
//! kept as a slice of the text.

/// One token; `Word` and `Punct` are byte ranges of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    /// A literal or a placeholder, shown as `?`.
    Value,
    /// A name, a keyword, or a quoted identifier (`` `t` ``, `"t"` where known to be one).
    Word(usize, usize),
    /// A `"..."` whose role (name or string) is decided once the statement is lexed.
    Quoted(usize, usize),
    /// One operator or punctuation character.
    Punct(usize, usize),
    /// Whitespace or a comment.
    Space,
}

/// How the dialect lexes what the three differ on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mode {
    /// `\'` escapes a quote inside `'...'` (MySQL).
    pub(super) backslash: bool,
    /// `#` starts a comment (MySQL), except before `>` or `-` (PostgreSQL's `#>`, `#-`).
    pub(super) hash_comments: bool,
    /// `"..."` is a name (`Some(true)`), a string (`Some(false)`) or decided later (`None`).
    pub(super) dq_ident: Option<bool>,
}

/// The tokens, and what they say about the dialect.
pub(super) struct Lexed {
    pub(super) toks: Vec<Tok>,
    /// A `$1` placeholder, a `$$` string or a `::` cast: PostgreSQL.
    pub(super) postgres: bool,
    /// A backslash escaped something inside a string: read without backslash
    /// escapes, the text would split differently.
    pub(super) backslash_used: bool,
    /// The text ended inside a string or a quoted name.
    pub(super) open: bool,
}

pub(super) fn lex(sql: &str, mode: Mode) -> Lexed {
    let b = sql.as_bytes();
    let mut lexed = Lexed { toks: Vec::new(), postgres: false, backslash_used: false, open: false };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        i = if c.is_ascii_whitespace() {
            push_space(&mut lexed.toks);
            i + 1
        } else if c == b'-' && next == Some(b'-')
            || c == b'#' && mode.hash_comments && !matches!(next, Some(b'>' | b'-'))
        {
            push_space(&mut lexed.toks);
            b[i..].iter().position(|&d| d == b'\n').map_or(b.len(), |p| i + p + 1)
        } else if c == b'/' && next == Some(b'*') {
            push_space(&mut lexed.toks);
            block_comment_end(b, i)
        } else if c == b'\'' {
            lexed.toks.push(Tok::Value);
            quoted(b, i, mode.backslash, &mut lexed)
        } else if c == b'"' || c == b'`' {
            let end = quoted(b, i, c == b'"' && mode.backslash, &mut lexed);
            lexed.toks.push(match (c, mode.dq_ident) {
                (b'`', _) | (_, Some(true)) => Tok::Word(i, end),
                (_, Some(false)) => Tok::Value,
                (_, None) => Tok::Quoted(i, end),
            });
            end
        } else if c == b'$' {
            let (tok, end, postgres) = dollar(sql, i);
            lexed.postgres |= postgres;
            lexed.toks.push(tok);
            end
        } else if c == b'?' {
            lexed.toks.push(Tok::Value);
            digits_end(b, i + 1)
        } else if c == b':' && next == Some(b':') {
            lexed.postgres = true;
            lexed.toks.push(Tok::Punct(i, i + 1));
            lexed.toks.push(Tok::Punct(i + 1, i + 2));
            i + 2
        } else if c.is_ascii_digit() || c == b'.' && next.is_some_and(|d| d.is_ascii_digit()) {
            number(sql, i, &mut lexed.toks)
        } else if matches!(c, b'-' | b'+') && starts_number(b, i + 1) && sign_is_unary(&lexed.toks, sql) {
            lexed.toks.push(Tok::Value);
            number_end(b, i + 1)
        } else if is_ident_start(c) {
            word(sql, i, mode, &mut lexed)
        } else {
            let len = sql[i..].chars().next().map_or(1, char::len_utf8);
            lexed.toks.push(Tok::Punct(i, i + len));
            i + len
        };
    }
    lexed
}

fn push_space(toks: &mut Vec<Tok>) {
    if toks.last() != Some(&Tok::Space) {
        toks.push(Tok::Space);
    }
}

/// Past a `/* ... */` comment, nested ones included (PostgreSQL nests them; dropping
/// more than MySQL would is the safe side). An open comment runs to the end.
fn block_comment_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// Past the quoted text (`'...'`, `"..."`, `` `...` ``) starting at `i`, noting a
/// backslash escape and an open end.
fn quoted(b: &[u8], i: usize, backslash: bool, lexed: &mut Lexed) -> usize {
    let quote = b[i];
    let mut i = i + 1;
    while i < b.len() {
        match b[i] {
            b'\\' if backslash => {
                lexed.backslash_used = true;
                i += 2;
            }
            c if c == quote && b.get(i + 1) == Some(&quote) => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    lexed.open = true;
    b.len()
}

/// At a `$`: a `$1` placeholder, a `$$...$$` or `$tag$...$tag$` string (an open one
/// runs to the end), a `$name` placeholder (SQLite), or the character itself.
fn dollar(sql: &str, i: usize) -> (Tok, usize, bool) {
    let b = sql.as_bytes();
    if b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        return (Tok::Value, digits_end(b, i + 1), true);
    }
    let tag_end =
        b[i + 1..].iter().position(|&c| !is_ident_start(c) && !c.is_ascii_digit()).map_or(b.len(), |p| i + 1 + p);
    if b.get(tag_end) == Some(&b'$') {
        let tag = &sql[i..=tag_end];
        let body = tag_end + 1;
        let end = sql[body..].find(tag).map_or(b.len(), |p| body + p + tag.len());
        return (Tok::Value, end, true);
    }
    if tag_end > i + 1 {
        return (Tok::Word(i, tag_end), tag_end, false);
    }
    (Tok::Punct(i, i + 1), i + 1, false)
}

/// A number or a name that starts with a digit (`2fa`, MySQL allows it).
fn number(sql: &str, i: usize, toks: &mut Vec<Tok>) -> usize {
    let b = sql.as_bytes();
    let radix = match (b[i], b.get(i + 1)) {
        (b'0', Some(b'x' | b'X')) => Some(16),
        (b'0', Some(b'b' | b'B')) => Some(2),
        (b'0', Some(b'o' | b'O')) => Some(8),
        _ => None,
    };
    if let Some(radix) = radix {
        let end =
            b[i + 2..].iter().position(|&c| !(c == b'_' || (c as char).is_digit(radix))).map_or(b.len(), |p| i + 2 + p);
        if end > i + 2 && !b.get(end).is_some_and(|&c| is_ident_char(c)) {
            toks.push(Tok::Value);
            return end;
        }
    }
    let end = number_end(b, i);
    if b.get(end).is_some_and(|&c| is_ident_char(c)) {
        let end = ident_end(b, end);
        toks.push(Tok::Word(i, end));
        return end;
    }
    toks.push(Tok::Value);
    end
}

fn starts_number(b: &[u8], i: usize) -> bool {
    b.get(i).is_some_and(u8::is_ascii_digit) || b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit)
}

/// A sign belongs to the number after it where no operand precedes (`= -1`, `(-1`,
/// `, +2`), so that `IN (-1, 2)` folds like `IN (1, 2)`.
fn sign_is_unary(toks: &[Tok], sql: &str) -> bool {
    match toks.iter().rev().find(|t| **t != Tok::Space) {
        None => true,
        Some(Tok::Punct(s, e)) => !matches!(&sql[*s..*e], ")" | "]"),
        Some(_) => false,
    }
}

/// Past digits (and `_` separators), one fraction, an exponent.
fn number_end(b: &[u8], i: usize) -> usize {
    let digits = |mut i: usize| {
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
        i
    };
    let mut i = digits(i);
    if b.get(i) == Some(&b'.') {
        i = digits(i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        if b.get(i + 1 + sign).is_some_and(u8::is_ascii_digit) {
            i = digits(i + 1 + sign);
        }
    }
    i
}

fn digits_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// A name, or the prefix of a literal glued to its quote: `E'..'`, `X'..'`, `B'..'`,
/// `N'..'`, `U&'..'`, MySQL's `_utf8mb4'..'`.
fn word(sql: &str, i: usize, mode: Mode, lexed: &mut Lexed) -> usize {
    let b = sql.as_bytes();
    let end = ident_end(b, i);
    let w = &b[i..end];
    let one = |c: u8| w.len() == 1 && w[0].eq_ignore_ascii_case(&c);
    let quote = match b.get(end) {
        Some(b'\'') => Some(end),
        Some(b'&') if one(b'u') && b.get(end + 1) == Some(&b'\'') => Some(end + 1),
        _ => None,
    };
    if let Some(q) = quote {
        let escape = one(b'e');
        if escape || one(b'x') || one(b'b') || one(b'n') || one(b'u') || w[0] == b'_' {
            lexed.postgres |= escape;
            lexed.toks.push(Tok::Value);
            return quoted(b, q, mode.backslash || escape, lexed);
        }
    }
    lexed.toks.push(Tok::Word(i, end));
    end
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

/// Inside a name: PostgreSQL and MySQL allow `$` after its first character.
fn is_ident_char(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit() || c == b'$'
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ident_char(b[i]) {
        i += 1;
    }
    i
}
