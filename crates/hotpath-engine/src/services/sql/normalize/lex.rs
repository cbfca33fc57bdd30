//! One pass over a statement's bytes into tokens: every literal of SQLite, PostgreSQL
//! and MySQL (strings in all their forms, numbers, blobs, placeholders) becomes one
//! value token, comments and whitespace become one space or comment token, everything
//! else is kept as a slice of the text. Every token holds its byte span, so that two
//! readings of one text can be laid over each other (`mask`).

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// A literal or a placeholder, shown as `?`.
    Value,
    /// A name, a keyword, or a quoted identifier (`` `t` ``, `"t"` where known to be one).
    Word,
    /// A `"..."` whose role (name or string) is decided once the statement is lexed.
    Quoted,
    /// One operator or punctuation character.
    Punct,
    /// Whitespace.
    Space,
    /// A comment, shown as a space.
    Comment,
}

/// One token: its class and its byte range of the text. `u32` offsets (the caller
/// cuts statements to 1 MiB) keep a token at 12 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tok {
    pub(super) class: Class,
    pub(super) start: u32,
    pub(super) end: u32,
}

impl Tok {
    fn new(class: Class, start: usize, end: usize) -> Self {
        Self { class, start: start as u32, end: end as u32 }
    }

    /// Whitespace or a comment: written as one space.
    pub(super) fn is_space(&self) -> bool {
        matches!(self.class, Class::Space | Class::Comment)
    }

    /// The token's text.
    pub(super) fn text<'a>(&self, sql: &'a str) -> &'a str {
        &sql[self.start as usize..self.end as usize]
    }

    /// True for a `Punct` token that is `p`.
    pub(super) fn is_punct(&self, sql: &str, p: &str) -> bool {
        self.class == Class::Punct && self.text(sql) == p
    }
}

/// How the dialect lexes what the three differ on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mode {
    /// `\'` escapes a quote inside `'...'` (MySQL).
    pub(super) backslash: bool,
    /// `#` starts a comment (MySQL).
    pub(super) hash_comments: bool,
    /// `#>` and `#-` are operators, not comments (PostgreSQL's JSON operators): only
    /// where the text reads as PostgreSQL.
    pub(super) hash_operators: bool,
    /// `"..."` is a name (`Some(true)`), a string (`Some(false)`) or decided later (`None`).
    pub(super) dq_ident: Option<bool>,
}

/// The tokens, and what they say about the dialect.
pub(super) struct Lexed {
    pub(super) toks: Vec<Tok>,
    /// A `$$` string, an `E'...'` string or a `::` cast: PostgreSQL. (`$1` is not:
    /// sqlx's SQLite numbers its parameters the same way.)
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
        let start = i;
        i = if c.is_ascii_whitespace() {
            push_space(&mut lexed.toks, Class::Space, i, i + 1);
            i + 1
        } else if c == b'-' && next == Some(b'-')
            || c == b'#' && mode.hash_comments && !(mode.hash_operators && matches!(next, Some(b'>' | b'-')))
        {
            let end = b[i..].iter().position(|&d| d == b'\n').map_or(b.len(), |p| i + p + 1);
            push_space(&mut lexed.toks, Class::Comment, i, end);
            end
        } else if c == b'/' && next == Some(b'*') {
            let end = block_comment_end(b, i);
            push_space(&mut lexed.toks, Class::Comment, i, end);
            end
        } else if c == b'\'' {
            let end = quoted(b, i, mode.backslash, &mut lexed);
            lexed.toks.push(Tok::new(Class::Value, i, end));
            end
        } else if c == b'"' || c == b'`' {
            let end = quoted(b, i, c == b'"' && mode.backslash, &mut lexed);
            let class = match (c, mode.dq_ident) {
                (b'`', _) | (_, Some(true)) => Class::Word,
                (_, Some(false)) => Class::Value,
                (_, None) => Class::Quoted,
            };
            lexed.toks.push(Tok::new(class, i, end));
            end
        } else if c == b'$' {
            let (class, end, postgres) = dollar(sql, i);
            lexed.postgres |= postgres;
            lexed.toks.push(Tok::new(class, i, end));
            end
        } else if c == b'?' {
            let end = digits_end(b, i + 1);
            lexed.toks.push(Tok::new(Class::Value, i, end));
            end
        } else if c == b':' && next == Some(b':') {
            lexed.postgres = true;
            lexed.toks.push(Tok::new(Class::Punct, i, i + 1));
            lexed.toks.push(Tok::new(Class::Punct, i + 1, i + 2));
            i + 2
        } else if c.is_ascii_digit() || c == b'.' && next.is_some_and(|d| d.is_ascii_digit()) {
            number(sql, i, &mut lexed.toks)
        } else if matches!(c, b'-' | b'+') && starts_number(b, i + 1) && sign_is_unary(&lexed.toks, sql) {
            let end = number_end(b, i + 1);
            lexed.toks.push(Tok::new(Class::Value, start, end));
            end
        } else if is_ident_start(c) {
            word(sql, i, mode, &mut lexed)
        } else {
            let len = sql[i..].chars().next().map_or(1, char::len_utf8);
            lexed.toks.push(Tok::new(Class::Punct, i, i + len));
            i + len
        };
    }
    lexed
}

/// Whitespace next to whitespace (or a comment next to a comment) grows one token.
fn push_space(toks: &mut Vec<Tok>, class: Class, start: usize, end: usize) {
    match toks.last_mut() {
        Some(last) if last.class == class && last.end as usize == start => last.end = end as u32,
        _ => toks.push(Tok::new(class, start, end)),
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
/// runs to the end), a `$name` placeholder (SQLite), or the character itself; and
/// whether it says PostgreSQL.
fn dollar(sql: &str, i: usize) -> (Class, usize, bool) {
    let b = sql.as_bytes();
    if b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        return (Class::Value, digits_end(b, i + 1), false);
    }
    let tag_end =
        b[i + 1..].iter().position(|&c| !is_ident_start(c) && !c.is_ascii_digit()).map_or(b.len(), |p| i + 1 + p);
    if b.get(tag_end) == Some(&b'$') {
        let tag = &sql[i..=tag_end];
        let body = tag_end + 1;
        let end = sql[body..].find(tag).map_or(b.len(), |p| body + p + tag.len());
        return (Class::Value, end, true);
    }
    if tag_end > i + 1 {
        return (Class::Word, tag_end, false);
    }
    (Class::Punct, i + 1, false)
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
            toks.push(Tok::new(Class::Value, i, end));
            return end;
        }
    }
    let end = number_end(b, i);
    if b.get(end).is_some_and(|&c| is_ident_char(c)) {
        let end = ident_end(b, end);
        toks.push(Tok::new(Class::Word, i, end));
        return end;
    }
    toks.push(Tok::new(Class::Value, i, end));
    end
}

fn starts_number(b: &[u8], i: usize) -> bool {
    b.get(i).is_some_and(u8::is_ascii_digit) || b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit)
}

/// A sign belongs to the number after it where no operand precedes (`= -1`, `(-1`,
/// `, +2`), so that `IN (-1, 2)` folds like `IN (1, 2)`.
fn sign_is_unary(toks: &[Tok], sql: &str) -> bool {
    match toks.iter().rev().find(|t| !t.is_space()) {
        None => true,
        Some(t) if t.class == Class::Punct => !matches!(t.text(sql), ")" | "]"),
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
            let string_end = quoted(b, q, mode.backslash || escape, lexed);
            lexed.toks.push(Tok::new(Class::Value, i, string_end));
            return string_end;
        }
    }
    lexed.toks.push(Tok::new(Class::Word, i, end));
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

/// Hides in `kept` what `other`, a second reading of the same text, holds to be a
/// literal or a comment: a name, quoted name or punctuation of `kept` overlapping a
/// value or comment of `other` becomes a value. One pass over both: both cover the
/// text in order, and a token of `other` is looked at again only while it spans
/// past the `kept` token being checked.
pub(super) fn mask(kept: &mut [Tok], other: &[Tok]) {
    let hides = |t: &Tok| matches!(t.class, Class::Value | Class::Comment);
    let mut j = 0;
    for tok in kept.iter_mut() {
        while other.get(j).is_some_and(|o| o.end <= tok.start) {
            j += 1;
        }
        if !matches!(tok.class, Class::Word | Class::Quoted | Class::Punct) {
            continue;
        }
        let overlaps = other[j.min(other.len())..].iter().take_while(|o| o.start < tok.end).any(hides);
        if overlaps {
            tok.class = Class::Value;
        }
    }
}
